package io.rubinbft.orderer.tls;

import io.rubinbft.orderer.crypto.Pem;
import java.io.IOException;
import java.net.Socket;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The client certificates a mutual-TLS listener accepts, following the channels' configs as
 * Fabric's orderer does ({@code updateTrustedRoots}): a certificate must chain to one of the
 * listener's own client root CAs (orderer.yaml) or to a TLS root or intermediate CA of an
 * organization in the current config of a channel this node serves. The channel CAs are read at
 * every handshake, so an organization added by a config update connects without a restart and a
 * removed one's new connections fail; connections already open stay open (as in Fabric). The trust
 * store is rebuilt only when the set of CAs changed. Thread-safe.
 */
public final class ClientTrust extends X509ExtendedTrustManager {

  private final List<X509Certificate> ownRoots;
  private final Supplier<List<X509Certificate>> channelCas;
  private volatile Anchored current;

  /** A trust manager built over one set of CAs; empty when there are none. */
  private record Anchored(
      List<X509Certificate> channelCas, Optional<X509ExtendedTrustManager> trust) {}

  /**
   * @param ownRoots the listener's configured client root CAs, always trusted
   * @param channelCas the TLS root and intermediate CAs of the served channels' current configs
   */
  public ClientTrust(List<X509Certificate> ownRoots, Supplier<List<X509Certificate>> channelCas) {
    this.ownRoots = List.copyOf(ownRoots);
    this.channelCas = channelCas;
    this.current = build(List.of());
  }

  /**
   * Trust in the CAs of {@code ownRootFiles} (PEM) and of the channels.
   *
   * @throws IllegalArgumentException naming a file that cannot be read
   */
  public static ClientTrust of(
      List<Path> ownRootFiles, Supplier<List<X509Certificate>> channelCas) {
    List<X509Certificate> roots = new ArrayList<>();
    for (Path file : ownRootFiles) {
      roots.addAll(Pem.certificates(file));
    }
    return new ClientTrust(roots, channelCas);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    trust().checkClientTrusted(chain, authType, socket);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    trust().checkClientTrusted(chain, authType, engine);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    trust().checkClientTrusted(chain, authType);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    throw new CertificateException("a server-side trust manager does not check servers");
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    throw new CertificateException("a server-side trust manager does not check servers");
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    throw new CertificateException("a server-side trust manager does not check servers");
  }

  /**
   * None: the certificate request then names no CAs, which TLS clients read as "any". A TLS stack
   * may take this list once when it sets up its context (Netty's OpenSSL context does), and a
   * client whose CA was added later would then find its certificate unwanted and send none (the
   * JDK's key managers filter by the list). Whom to trust is decided per handshake above.
   */
  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return new X509Certificate[0];
  }

  /** The trust manager over the CAs in force now. */
  private X509ExtendedTrustManager trust() throws CertificateException {
    List<X509Certificate> cas = channelCas.get();
    Anchored anchored = current;
    if (!anchored.channelCas().equals(cas)) {
      anchored = build(cas);
      current = anchored;
    }
    // The JDK's validator fails with an unchecked error over no anchors; refuse plainly instead.
    return anchored
        .trust()
        .orElseThrow(
            () ->
                new CertificateException(
                    "no client CA is trusted: none configured and no channel names one"));
  }

  private Anchored build(List<X509Certificate> cas) {
    LinkedHashSet<X509Certificate> anchors = new LinkedHashSet<>(ownRoots);
    anchors.addAll(cas);
    if (anchors.isEmpty()) {
      return new Anchored(List.copyOf(cas), Optional.empty());
    }
    try {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      int index = 0;
      for (X509Certificate anchor : anchors) {
        store.setCertificateEntry("ca-" + index++, anchor);
      }
      TrustManagerFactory factory =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(store);
      for (TrustManager manager : factory.getTrustManagers()) {
        if (manager instanceof X509ExtendedTrustManager x509) {
          return new Anchored(List.copyOf(cas), Optional.of(x509));
        }
      }
      throw new IllegalStateException("the JDK's trust manager factory made no X.509 manager");
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException(
          "cannot build a trust store of " + anchors.size() + " CAs", e);
    }
  }
}
