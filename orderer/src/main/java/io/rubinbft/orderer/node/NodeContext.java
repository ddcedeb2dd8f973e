package io.rubinbft.orderer.node;

import io.rubinbft.ledger.BlockStore;
import io.rubinbft.orderer.cluster.ClusterNetwork;
import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.identity.SigningIdentity;
import io.rubinbft.orderer.memory.NodeMemory;
import io.rubinbft.orderer.metrics.OrdererMetrics;
import io.rubinbft.orderer.onboarding.OnboardingSettings;
import io.rubinbft.orderer.onboarding.PullContext;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

/**
 * What every channel of a node shares.
 *
 * @param identity this node's enrollment identity (the one its consenter entries name)
 * @param provider the crypto provider (ACCP, or the JDK's where ACCP cannot load)
 * @param store the node's block store (one RocksDB for all channels)
 * @param network the replica network
 * @param walRoot the folder holding each channel's consensus WAL
 * @param tick how long one bft-core tick lasts
 * @param clock wall time for certificate expiry and timestamps
 * @param expirationChecks whether expired client certificates are refused (Fabric's {@code
 *     General.Authentication.NoExpirationChecks} inverted), at ingress and in proposals alike
 * @param metrics where the channels' replicas report their decisions
 * @param onboarding how channels joined with a later config block, followers and lagging consenters
 *     pull blocks from other orderers
 * @param memory the node's byte budgets and the request-pool account its channels share
 */
public record NodeContext(
    SigningIdentity identity,
    CryptoProvider provider,
    BlockStore store,
    ClusterNetwork network,
    Path walRoot,
    Duration tick,
    Clock clock,
    boolean expirationChecks,
    OrdererMetrics metrics,
    OnboardingSettings onboarding,
    NodeMemory memory) {

  /** 10 ms: SmartBFT's 200 ms batch interval is 20 ticks. */
  public static final Duration DEFAULT_TICK = Duration.ofMillis(10);

  /** What pulling blocks from other orderers needs: this node's identity, TLS and limits. */
  public PullContext pullContext() {
    return onboarding.pullContext(identity, provider, clock);
  }
}
