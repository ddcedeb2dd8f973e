package io.rubinbft.orderer.tls;

import io.rubinbft.orderer.config.TlsSettings;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** Builds a server-side {@link SSLContext} from a listener's PEM files (TLS 1.2 and 1.3 only). */
public final class ServerTls {

  private static final char[] IN_MEMORY_PASSWORD = new char[0];

  private ServerTls() {}

  /**
   * The context for {@code settings}; with client authentication on, client certificates must chain
   * to {@code settings.clientRootCas()}.
   *
   * @throws IllegalArgumentException naming the file that could not be used
   */
  public static SSLContext context(TlsSettings settings) {
    if (!settings.enabled()) {
      throw new IllegalStateException("TLS is disabled for this listener");
    }
    try {
      List<X509Certificate> chain = Pem.certificates(settings.certificate());
      PrivateKey key = Pem.privateKey(settings.privateKey());
      KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(null, null);
      keys.setKeyEntry("server", key, IN_MEMORY_PASSWORD, chain.toArray(new X509Certificate[0]));
      KeyManagerFactory keyManagers =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keyManagers.init(keys, IN_MEMORY_PASSWORD);
      TrustManagerFactory trustManagers =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trustManagers.init(trustStore(settings.clientRootCas()));
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keyManagers.getKeyManagers(), trustManagers.getTrustManagers(), null);
      return context;
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

  /** A key store trusting every certificate in the given PEM files. */
  public static KeyStore trustStore(List<Path> pemFiles)
      throws GeneralSecurityException, IOException {
    KeyStore roots = KeyStore.getInstance("PKCS12");
    roots.load(null, null);
    int index = 0;
    for (Path file : pemFiles) {
      for (X509Certificate certificate : Pem.certificates(file)) {
        roots.setCertificateEntry("root-" + index++, certificate);
      }
    }
    return roots;
  }
}
