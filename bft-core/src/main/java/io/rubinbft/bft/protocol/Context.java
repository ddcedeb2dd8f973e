package io.rubinbft.bft.protocol;

import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.Quorums;
import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.message.Checkpoint;
import io.rubinbft.bft.message.NewView;
import io.rubinbft.bft.message.SignedBytes;
import io.rubinbft.bft.spi.ReplicaServices;
import java.util.List;

/** The state the protocol parts share: configuration, view, watermarks, log, pool, clock. */
final class Context {

  final ReplicaConfig config;
  final Quorums quorums;
  final ReplicaServices services;
  final int self;
  final Drops drops = new Drops();
  final SlotLog log;
  final RequestPool pool;
  EffectsBuilder out = new EffectsBuilder();

  /** Ticks since this replica (re)started. */
  long now;

  /** The current view, or the view being changed to while {@code viewInstalled} is false. */
  long view;

  boolean viewInstalled = true;
  long viewStartTick;

  /** The new-view message that installed the current view (null in view 0). */
  NewView installedNewView;

  /**
   * The sequence the current view's new view started after. Until this replica delivered it, it
   * does not know every request ordered below, so it proposes and accepts no new batches.
   */
  long viewFloor;

  /** Low watermark h: the stable checkpoint, its digest and its proof. */
  long low;

  Digest lowDigest = Digest.GENESIS;
  List<Checkpoint> lowProof = List.of();

  Context(ReplicaConfig config, ReplicaServices services) {
    this.config = config;
    this.quorums = new Quorums(config.replicas());
    this.services = services;
    this.self = config.self();
    this.log = new SlotLog(config.retainedDecisions());
    this.pool = new RequestPool(config.poolLimit(), config.decidedIdMemory());
  }

  int primary(long ofView) {
    return (int) (ofView % config.replicas());
  }

  boolean isPrimary() {
    return primary(view) == self;
  }

  long highWatermark() {
    return low + config.window();
  }

  boolean inWindow(long sequence) {
    return sequence > low && sequence <= highWatermark();
  }

  Digest digest(Proposal proposal) {
    return new Digest(services.crypto().digest(SignedBytes.proposal(proposal)));
  }

  byte[] sign(byte[] data) {
    return services.crypto().sign(data);
  }

  /**
   * The digest a proposal at {@code sequence} must chain to: the decision at {@code sequence - 1},
   * or the pre-prepare this replica accepted there in the current view; null while unknown.
   */
  Digest chainDigest(long sequence) {
    long previous = sequence - 1;
    if (previous <= log.lastDelivered()) {
      return previous == low ? lowDigest : log.decidedDigest(previous);
    }
    Slot slot = log.existing(previous);
    return slot == null || slot.accepted == null ? null : slot.accepted.digest();
  }

  /** The proposal at {@code sequence - 1} for the application's checks (null before sequence 1). */
  Proposal previousProposal(long sequence) {
    long previous = sequence - 1;
    if (previous <= log.lastDelivered()) {
      return log.decidedProposal(previous);
    }
    Slot slot = log.existing(previous);
    return slot == null || slot.accepted == null ? null : slot.accepted.proposal();
  }
}
