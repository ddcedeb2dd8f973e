package io.rubinbft.orderer.onboarding;

import io.rubinbft.orderer.config.HostPort;
import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.identity.SigningIdentity;
import java.time.Clock;
import java.util.Optional;

/**
 * What pulling blocks needs of the node.
 *
 * @param identity signs the Deliver requests (it must satisfy the channel's /Channel/Readers)
 * @param provider verifies block signatures and builds channel configs
 * @param clock timestamps of requests, expiry of certificates
 * @param tls the client key pair, or empty when this node speaks plaintext gRPC
 * @param self this node's own Deliver endpoint, never asked for blocks (it does not have them)
 * @param limits timeouts and backoff
 */
public record PullContext(
    SigningIdentity identity,
    CryptoProvider provider,
    Clock clock,
    Optional<NodeTls> tls,
    Optional<HostPort> self,
    PullLimits limits) {}
