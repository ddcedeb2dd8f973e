package io.rubinbft.orderer.node;

import io.rubinbft.orderer.config.TlsSettings;
import io.rubinbft.orderer.crypto.Pem;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Warns at start, and again on each channel joined later, when the admin API trusts a CA that is
 * also a TLS CA of the organizations of the channels served: then every TLS certificate that CA
 * issued (every consenter's, which all other consenters hold; a peer's) is an admin of this node,
 * and an admin may remove a channel. Fabric allows it and so do we (an operator may mean it), but
 * it is said loudly.
 */
final class AdminClientCaCheck {

  private final List<X509Certificate> adminClientRoots;
  private final Consumer<String> warn;

  private AdminClientCaCheck(List<X509Certificate> adminClientRoots, Consumer<String> warn) {
    this.adminClientRoots = List.copyOf(adminClientRoots);
    this.warn = warn;
  }

  /** The admin client roots that are also among {@code channelTlsCas}. */
  static List<X509Certificate> shared(
      List<X509Certificate> adminClientRoots, List<X509Certificate> channelTlsCas) {
    Set<X509Certificate> channel = Set.copyOf(channelTlsCas);
    List<X509Certificate> shared = new ArrayList<>();
    for (X509Certificate root : adminClientRoots) {
      if (channel.contains(root)) {
        shared.add(root);
      }
    }
    return shared;
  }

  /** The warning for {@code shared} CAs, or none. */
  static List<String> warnings(List<X509Certificate> shared) {
    return shared.stream()
        .map(
            ca ->
                "Admin.TLS.ClientRootCAs includes "
                    + ca.getSubjectX500Principal().getName()
                    + ", which is also a TLS CA of an organization of a channel served here: every"
                    + " TLS certificate it issued (each consenter's among them) is an admin of this"
                    + " node and may remove channels; give the admin API a client CA of its own")
        .toList();
  }

  /**
   * The check of the admin API's client roots: none when the admin API takes no client certificate.
   */
  static AdminClientCaCheck of(TlsSettings admin, Consumer<String> warn) {
    List<X509Certificate> roots = new ArrayList<>();
    if (admin.enabled() && admin.clientAuthRequired()) {
      for (Path file : admin.clientRootCas()) {
        roots.addAll(Pem.certificates(file));
      }
    }
    return new AdminClientCaCheck(roots, warn);
  }

  /** Warns once per shared CA among the TLS CAs of the channels served at start. */
  void atStart(List<X509Certificate> channelTlsCas) {
    warnings(shared(adminClientRoots, channelTlsCas)).forEach(warn);
  }

  /** Warns once per shared CA among the TLS CAs of channel {@code name}, just joined. */
  void joined(String name, List<X509Certificate> channelTlsCas) {
    warnings(shared(adminClientRoots, channelTlsCas))
        .forEach(warning -> warn.accept("channel " + name + " joined: " + warning));
  }
}
