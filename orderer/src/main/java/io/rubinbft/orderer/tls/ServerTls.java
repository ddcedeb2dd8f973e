package io.rubinbft.orderer.tls;

import io.rubinbft.orderer.config.TlsSettings;
import io.rubinbft.orderer.crypto.Pem;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * Server-side TLS from a listener's PEM files, shared by the gRPC listener and the JDK HTTPS
 * listeners so both read keys and trust roots the same way.
 */
public final class ServerTls {

  private static final char[] IN_MEMORY_PASSWORD = new char[0];

  private ServerTls() {}

  /**
   * A JSSE context for {@code settings}; with client authentication on, client certificates must
   * chain to {@code settings.clientRootCas()}.
   *
   * @throws IllegalArgumentException naming the file that could not be used
   */
  public static SSLContext context(TlsSettings settings) {
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keyManagers(settings), trustManagers(settings.clientRootCas()), null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("cannot set up TLS: " + e.getMessage(), e);
    }
  }

  /** Key managers presenting the listener's certificate chain and key. */
  public static KeyManager[] keyManagers(TlsSettings settings) {
    if (!settings.enabled()) {
      throw new IllegalStateException("TLS is disabled for this listener");
    }
    try {
      // Enabled TLS settings name both (the config loader requires them).
      List<X509Certificate> chain =
          Pem.certificates(Objects.requireNonNull(settings.certificate()));
      PrivateKey key = Pem.privateKey(Objects.requireNonNull(settings.privateKey()));
      KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(null, null);
      keys.setKeyEntry("server", key, IN_MEMORY_PASSWORD, chain.toArray(new X509Certificate[0]));
      KeyManagerFactory factory =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      factory.init(keys, IN_MEMORY_PASSWORD);
      return factory.getKeyManagers();
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalArgumentException(
          "cannot use TLS key pair "
              + settings.certificate()
              + " / "
              + settings.privateKey()
              + ": "
              + e.getMessage(),
          e);
    }
  }

  /** Trust managers accepting certificates that chain to the CAs in {@code pemFiles}. */
  public static TrustManager[] trustManagers(List<Path> pemFiles) {
    try {
      TrustManagerFactory factory =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(trustStore(pemFiles));
      return factory.getTrustManagers();
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalArgumentException(
          "cannot use trusted CAs " + pemFiles + ": " + e.getMessage(), e);
    }
  }

  /**
   * Trust managers accepting certificates that chain to {@code roots}, e.g. the TLS CAs a channel
   * config names.
   *
   * @throws IllegalArgumentException when {@code roots} is empty or cannot be used
   */
  public static TrustManager[] trustManagersOf(List<X509Certificate> roots) {
    if (roots.isEmpty()) {
      throw new IllegalArgumentException("no trusted CA certificate");
    }
    try {
      TrustManagerFactory factory =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(trustStoreOf(roots));
      return factory.getTrustManagers();
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalArgumentException("cannot trust CAs " + roots + ": " + e.getMessage(), e);
    }
  }

  /** A key store trusting every certificate in the given PEM files. */
  public static KeyStore trustStore(List<Path> pemFiles)
      throws GeneralSecurityException, IOException {
    List<X509Certificate> roots = new ArrayList<>();
    for (Path file : pemFiles) {
      roots.addAll(Pem.certificates(file));
    }
    return trustStoreOf(roots);
  }

  private static KeyStore trustStoreOf(List<X509Certificate> certificates)
      throws GeneralSecurityException, IOException {
    KeyStore roots = KeyStore.getInstance("PKCS12");
    roots.load(null, null);
    int index = 0;
    for (X509Certificate certificate : certificates) {
      roots.setCertificateEntry("root-" + index++, certificate);
    }
    return roots;
  }
}
