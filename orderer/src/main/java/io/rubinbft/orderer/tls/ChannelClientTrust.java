package io.rubinbft.orderer.tls;

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
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Trust for the TLS client certificates of the Broadcast/Deliver listener under mutual TLS, as
 * Fabric's orderer builds it: the configured {@code General.TLS.ClientRootCAs} plus the TLS root
 * and intermediate CA certificates of every org of every channel this node serves, as their current
 * configs name them. So a peer of an application org reaches the orderer with its own TLS
 * certificate without the operator listing its CA, and an org added or removed by a config update
 * is trusted or not from the next handshake on.
 *
 * <p>The channels' CAs are read at each handshake; the PKIX trust manager over them is rebuilt only
 * when the set of CAs changed.
 */
public final class ChannelClientTrust extends X509ExtendedTrustManager {

  private static final X509Certificate[] NO_ISSUERS = new X509Certificate[0];

  private final List<X509Certificate> configuredRoots;
  private final Supplier<List<X509Certificate>> channelCas;
  private final AtomicReference<Anchors> current = new AtomicReference<>();

  /**
   * @param configuredRoots the PEM files of {@code General.TLS.ClientRootCAs}
   * @param channelCas the TLS CA certificates of the channels served right now
   * @throws IllegalArgumentException naming a file that is not a PEM certificate
   */
  public ChannelClientTrust(
      List<Path> configuredRoots, Supplier<List<X509Certificate>> channelCas) {
    List<X509Certificate> roots = new ArrayList<>();
    configuredRoots.forEach(file -> roots.addAll(Pem.certificates(file)));
    this.configuredRoots = List.copyOf(roots);
    this.channelCas = channelCas;
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    trustManager().checkClientTrusted(chain, authType);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    trustManager().checkClientTrusted(chain, authType, socket);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    trustManager().checkClientTrusted(chain, authType, engine);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    throw new CertificateException("this trust manager checks TLS clients only");
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    throw new CertificateException("this trust manager checks TLS clients only");
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    throw new CertificateException("this trust manager checks TLS clients only");
  }

  /**
   * None. The list goes into the server's CertificateRequest, and Go's TLS client (Fabric's peer,
   * CLI and SDKs) sends no certificate at all when its issuer is not on a non-empty list; the TLS
   * engine may read the list once when the listener starts, before any channel is joined. With an
   * empty list every client sends its certificate, and {@link #checkClientTrusted} decides with the
   * channels' CAs of the moment.
   */
  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return NO_ISSUERS.clone();
  }

  /** The CAs trusted right now, in a stable order without repeats. */
  List<X509Certificate> anchors() {
    Set<X509Certificate> anchors = new LinkedHashSet<>(configuredRoots);
    anchors.addAll(channelCas.get());
    return List.copyOf(anchors);
  }

  private X509ExtendedTrustManager trustManager() throws CertificateException {
    List<X509Certificate> anchors = anchors();
    if (anchors.isEmpty()) {
      throw new CertificateException(
          "no TLS client CA is trusted: General.TLS.ClientRootCAs is empty and no channel is"
              + " served");
    }
    Anchors known = current.get();
    if (known != null && known.certificates().equals(anchors)) {
      return known.trustManager();
    }
    Anchors built = new Anchors(anchors, pkix(anchors));
    current.set(built);
    return built.trustManager();
  }

  private static X509ExtendedTrustManager pkix(List<X509Certificate> anchors)
      throws CertificateException {
    try {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      for (int i = 0; i < anchors.size(); i++) {
        store.setCertificateEntry("ca-" + i, anchors.get(i));
      }
      TrustManagerFactory factory = TrustManagerFactory.getInstance("PKIX");
      factory.init(store);
      for (TrustManager manager : factory.getTrustManagers()) {
        if (manager instanceof X509ExtendedTrustManager x509) {
          return x509;
        }
      }
      throw new IllegalStateException("the PKIX trust manager factory made no X.509 manager");
    } catch (GeneralSecurityException | IOException e) {
      throw new CertificateException("cannot trust the TLS client CAs: " + e.getMessage(), e);
    }
  }

  private record Anchors(
      List<X509Certificate> certificates, X509ExtendedTrustManager trustManager) {}
}
