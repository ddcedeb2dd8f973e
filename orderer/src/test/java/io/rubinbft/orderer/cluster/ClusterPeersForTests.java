package io.rubinbft.orderer.cluster;

import java.net.InetSocketAddress;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Cluster peers for tests whose nodes listen on ephemeral ports, which no consenter mapping names:
 * exactly these certificates on every link, whoever was dialled. The check by address is the
 * channels' own ({@code ChannelRegistry.clusterPeers}), exercised by the node tests, and
 * ClusterNetwork's use of it by {@code ClusterNetworkTest}.
 */
public final class ClusterPeersForTests {

  private ClusterPeersForTests() {}

  public static ClusterPeers anyOf(List<X509Certificate> certificates) {
    Set<X509Certificate> allowed = Set.copyOf(certificates);
    return new ClusterPeers() {
      @Override
      public Optional<String> rejectInbound(X509Certificate certificate) {
        return allowed.contains(certificate)
            ? Optional.empty()
            : Optional.of(
                "certificate of "
                    + certificate.getSubjectX500Principal().getName()
                    + " is not one of the "
                    + allowed.size()
                    + " expected peers");
      }

      @Override
      public Optional<String> rejectDialled(
          InetSocketAddress dialled, X509Certificate certificate) {
        return rejectInbound(certificate);
      }
    };
  }
}
