package io.rubinbft.orderer.consensus;

import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.spi.ReplicaServices;
import io.rubinbft.bft.wire.WireLimits;
import io.rubinbft.orderer.block.BlockSignatureVerifier;
import io.rubinbft.orderer.block.BlockSigner;
import io.rubinbft.orderer.block.FabricProposalSigner;
import io.rubinbft.orderer.block.FabricProposals;
import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.channel.PbftSettings;
import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.crypto.EcKeys;
import io.rubinbft.orderer.crypto.EcdsaSigner;
import io.rubinbft.orderer.crypto.EcdsaVerifier;
import io.rubinbft.orderer.crypto.Sha256;
import io.rubinbft.orderer.memory.MemoryBudgets;
import io.rubinbft.orderer.memory.MessageLimits;
import io.rubinbft.orderer.memory.Pipeline;
import java.security.SecureRandom;
import java.time.Duration;

/**
 * Builds a channel's PBFT replica from its config: the replica parameters (SmartBFT's options in
 * ticks) and the Fabric application behind bft-core's SPIs.
 */
public final class ChannelReplicas {

  /**
   * Recently ordered tx ids remembered to refuse duplicates, at least the pool's size (bft-core's
   * rule). 100,000 is the last 20 s at 5,000 tx/s, far longer than a client's copies of one
   * transaction to the orderers take to arrive; their share of the heap is measured in
   * bench/journal/2026-11-21-08-memory-jit-light-load.md.
   */
  static final int DECIDED_ID_MEMORY = 100_000;

  private ChannelReplicas() {}

  /**
   * The replica parameters for replica {@code self} (its index among the consenters by id).
   *
   * @param tick how long one bft-core tick lasts on this node
   * @param budgets the node's queue budgets, which cut its state-transfer answers ({@link
   *     MessageLimits#answerBytes})
   */
  public static ReplicaConfig replicaConfig(
      ChannelConfig channel, int self, Duration tick, MemoryBudgets budgets) {
    PbftSettings pbft = channel.pbft();
    Pipeline pipeline = pipeline(channel.consenters().size(), pbft);
    int poolLimit = Math.max(pbft.batchMaxCount(), pbft.requestPoolSize());
    return new ReplicaConfig(
            channel.consenters().size(),
            self,
            pbft.batchMaxCount(),
            pipeline.batchMaxBytes(),
            ticks(pbft.batchMaxInterval(), tick, 0),
            pipeline.window(),
            pipeline.checkpointInterval(),
            poolLimit,
            pipeline.requestMaxBytes(),
            ticks(pbft.requestTimeout(), tick, 1),
            ticks(pbft.viewChangeTimeout(), tick, 1),
            ticks(pbft.viewChangeResendInterval(), tick, 1),
            // Decisions kept in memory to serve peers catching up: as many blocks at the cap as the
            // window's bytes hold (bft-core keeps the digests of a window to verify checkpoints);
            // older ones are rebuilt from the ledger (LedgerDecisionArchive), which holds every
            // block
            // anyway. Each retained decision is a whole block on the heap
            // (bench/journal/2026-11-21-08-memory-jit-light-load.md).
            pipeline.retainedDecisions(),
            Math.max(DECIDED_ID_MEMORY, Math.max(pbft.requestPoolSize(), poolLimit)),
            MessageLimits.answerBytes(budgets),
            pipeline.windowBytes())
        .withCutSpacingTicks(ticks(pbft.cutSpacing(), tick, 0));
  }

  /**
   * The Fabric application for this node's replica.
   *
   * @param channel the config whose consenters vote and sign blocks: the epoch's (its assembler
   *     ends the epoch at the config block the host switches at)
   * @param proposals block assembly and checks under the config in force at each block
   * @param selfConsenterId this node's consenter id
   * @param enrollmentKey this node's signing key (its consenter identity's key)
   */
  public static ReplicaServices services(
      ChannelConfig channel,
      FabricProposals<?> proposals,
      long selfConsenterId,
      EcdsaSigner enrollmentKey,
      CryptoProvider provider) {
    EcKeys keys = new EcKeys(provider);
    EcdsaVerifier verifier = new EcdsaVerifier(provider);
    BlockSignatureVerifier blockSignatures =
        new BlockSignatureVerifier(channel.consenters(), keys, verifier);
    return new ReplicaServices(
        new ConsenterVoteCrypto(
            channel.consenters(), enrollmentKey, keys, verifier, new Sha256(provider)),
        new FabricProposalSigner(
            new BlockSigner(selfConsenterId, enrollmentKey, new SecureRandom()),
            channel.consenters(),
            blockSignatures),
        proposals.forEpoch(channel),
        proposals);
  }

  /** The limits the wire codec enforces for a replica running {@code config}. */
  public static WireLimits wireLimits(ReplicaConfig config) {
    return WireLimits.of(
        config, MessageLimits.MAX_PAYLOAD_BYTES, MessageLimits.MAX_SIGNATURE_BYTES);
  }

  /** The window and proposal limits of a channel with {@code replicas} consenters. */
  static Pipeline pipeline(int replicas, PbftSettings pbft) {
    return Pipeline.forChannel(
        replicas, pbft.batchMaxCount(), pbft.batchMaxBytes(), pbft.requestMaxBytes());
  }

  private static int ticks(Duration duration, Duration tick, int minimum) {
    long ticks = duration.toNanos() / tick.toNanos();
    return (int) Math.max(minimum, Math.min(Integer.MAX_VALUE, ticks));
  }
}
