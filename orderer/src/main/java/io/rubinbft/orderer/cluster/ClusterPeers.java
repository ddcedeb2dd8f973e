package io.rubinbft.orderer.cluster;

import java.net.InetSocketAddress;
import java.security.cert.X509Certificate;
import java.util.Optional;

/**
 * Which certificates the cluster network accepts from a peer that proved it holds one: on an
 * inbound connection, any consenter's of a channel served here; on a connection this node dialled,
 * only the certificate of the consenter at the address dialled, so a consenter that answers in
 * another's place (its address taken over, a DNS entry changed) is refused. The certificate's
 * validity period is checked before either ({@link CertificateValidity}).
 */
public interface ClusterPeers {

  /** Empty to accept an inbound peer that presented {@code certificate}, or why it is refused. */
  Optional<String> rejectInbound(X509Certificate certificate);

  /**
   * Empty to accept the peer this node dialled at {@code dialled}, which presented {@code
   * certificate}, or why it is refused.
   */
  Optional<String> rejectDialled(InetSocketAddress dialled, X509Certificate certificate);
}
