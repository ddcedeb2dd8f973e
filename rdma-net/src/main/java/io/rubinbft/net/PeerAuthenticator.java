package io.rubinbft.net;

import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Decides whether the certificate a peer proved it holds (by signing the handshake with its key) is
 * one this replica talks to. The orderer supplies it from the channel's consenter set.
 */
@FunctionalInterface
public interface PeerAuthenticator {

  /** Empty to accept the peer, or why it is refused (counted, and the connection is closed). */
  Optional<String> rejectReason(X509Certificate presented);

  /** Accepts exactly these certificates (pinning, e.g. the other consenters' certificates). */
  static PeerAuthenticator pinned(List<X509Certificate> expected) {
    Set<X509Certificate> allowed = Set.copyOf(expected);
    return presented ->
        allowed.contains(presented)
            ? Optional.empty()
            : Optional.of(
                "certificate of "
                    + presented.getSubjectX500Principal().getName()
                    + " is not one of the "
                    + allowed.size()
                    + " expected peers");
  }
}
