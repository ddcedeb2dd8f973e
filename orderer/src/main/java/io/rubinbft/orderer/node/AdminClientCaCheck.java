package io.rubinbft.orderer.node;

import io.rubinbft.orderer.config.TlsSettings;
import io.rubinbft.orderer.crypto.Pem;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warns at start when the admin API trusts a CA that is also a TLS CA of the organizations of the
 * channels served: then every TLS certificate that CA issued (every consenter's, which all other
 * consenters hold; a peer's) is an admin of this node, and an admin may remove a channel. Fabric
 * allows it and so do we (an operator may mean it), but it is said loudly.
 */
final class AdminClientCaCheck {

  private static final Logger LOG = LoggerFactory.getLogger(AdminClientCaCheck.class);

  private AdminClientCaCheck() {}

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

  /** Logs a warning per shared CA when the admin API requires client certificates. */
  static void warnIfShared(TlsSettings admin, List<X509Certificate> channelTlsCas) {
    if (!admin.enabled() || !admin.clientAuthRequired()) {
      return;
    }
    List<X509Certificate> roots = new ArrayList<>();
    for (Path file : admin.clientRootCas()) {
      roots.addAll(Pem.certificates(file));
    }
    warnings(shared(roots, channelTlsCas)).forEach(LOG::warn);
  }
}
