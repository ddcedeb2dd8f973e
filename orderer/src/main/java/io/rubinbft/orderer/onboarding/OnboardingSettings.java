package io.rubinbft.orderer.onboarding;

import io.rubinbft.orderer.config.HostPort;
import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.identity.SigningIdentity;
import java.time.Clock;
import java.util.Optional;

/**
 * What pulling and onboarding take from the node's configuration.
 *
 * @param tls the gRPC listener's key pair, presented as client certificate; empty without TLS
 * @param self the node's own Deliver endpoint, never asked for blocks
 * @param limits timeouts and backoff
 * @param pendingJoins where join blocks wait while their channel onboards
 */
public record OnboardingSettings(
    Optional<NodeTls> tls, Optional<HostPort> self, PullLimits limits, PendingJoins pendingJoins) {

  /** The pull context of a node with this identity, crypto provider and clock. */
  public PullContext pullContext(SigningIdentity identity, CryptoProvider provider, Clock clock) {
    return new PullContext(identity, provider, clock, tls, self, limits);
  }
}
