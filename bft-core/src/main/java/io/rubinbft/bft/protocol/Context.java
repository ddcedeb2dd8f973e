package io.rubinbft.bft.protocol;

import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Epoch;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.Quorums;
import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.message.Checkpoint;
import io.rubinbft.bft.message.NewView;
import io.rubinbft.bft.message.SignedBytes;
import io.rubinbft.bft.spi.ReplicaServices;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** The state the protocol parts share: configuration, view, watermarks, log, pool, clock. */
final class Context {

  final ReplicaConfig config;
  final Quorums quorums;
  final ReplicaServices services;

  /** The epoch this replica orders in: everything at or below its anchor is settled history. */
  final Epoch epoch;

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
  @Nullable NewView installedNewView;

  /**
   * The sequence the current view's new view started after. Until this replica delivered it, it
   * does not know every request ordered below, so it proposes and accepts no new batches.
   */
  long viewFloor;

  /**
   * Low watermark h: the stable checkpoint, its digest and its proof. It starts at the epoch's
   * anchor without proof: every member derives the same anchor from the same history.
   */
  long low;

  Digest lowDigest;
  List<Checkpoint> lowProof = List.of();

  /**
   * @param anchorProposal the proposal decided at the epoch's anchor (null for the genesis epoch):
   *     the one the epoch's first proposal chains to
   */
  Context(
      ReplicaConfig config,
      ReplicaServices services,
      Epoch epoch,
      @Nullable Proposal anchorProposal) {
    this.config = config;
    this.quorums = new Quorums(config.replicas());
    this.services = services;
    this.epoch = epoch;
    this.self = config.self();
    this.log =
        new SlotLog(
            config.retainedDecisions(),
            config.window(),
            config.checkpointInterval(),
            config.checkpointBytes(),
            epoch,
            anchorProposal);
    this.pool = new RequestPool(config.poolLimit(), config.decidedIdMemory());
    this.low = epoch.sequence();
    this.lowDigest = epoch.digest();
    this.viewFloor = epoch.sequence();
  }

  /**
   * Whether the proposal at {@code sequence - 1}, as this replica knows it, ends the epoch: then
   * nothing may be proposed or accepted at {@code sequence} in this epoch.
   */
  boolean followsEpochEnd(long sequence) {
    if (sequence - 1 <= epoch.sequence()) {
      return false;
    }
    Proposal previous = previousProposal(sequence);
    return previous != null && services.assembler().endsEpoch(previous);
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

  /**
   * Request bytes of the chain this replica knows in (h, {@code upTo}]: the decided proposals, then
   * the pre-prepares accepted in the current view. A primary counts its proposals in flight with it
   * ({@link ReplicaConfig#windowBytes}).
   */
  long chainBytes(long upTo) {
    long bytes = 0;
    for (long sequence = Math.max(low, log.lastDelivered()) + 1; sequence <= upTo; sequence++) {
      Slot slot = sequence <= log.lastDelivered() ? null : log.existing(sequence);
      if (slot != null && slot.accepted != null) {
        bytes += slot.accepted.proposal().requestBytes();
      }
    }
    return bytes + log.deliveredBytesAbove(low);
  }

  /**
   * Request bytes of every proposal body this replica holds above h: decided ones, and per slot the
   * pre-prepare accepted or waiting and a prepared proposal of another digest. A backup bounds it
   * ({@link ReplicaConfig#backupWindowBytes}).
   */
  long heldBytes() {
    long bytes = log.deliveredBytesAbove(low);
    for (Slot slot : log.all()) {
      if (slot.sequence > low) {
        bytes += slot.heldBytes();
      }
    }
    return bytes;
  }

  Digest digest(Proposal proposal) {
    return new Digest(services.crypto().digest(SignedBytes.proposal(proposal)));
  }

  byte[] sign(byte[] data) {
    return services.crypto().sign(data);
  }

  /** This replica's prepare vote for {@code digest} at {@code sequence} in the current view. */
  byte[] signVote(long sequence, Digest digest) {
    return sign(SignedBytes.prepareVote(epoch, view, sequence, digest));
  }

  /**
   * The digest a proposal at {@code sequence} must chain to: the decision at {@code sequence - 1},
   * or the pre-prepare this replica accepted there in the current view; null while unknown.
   */
  @Nullable Digest chainDigest(long sequence) {
    long previous = sequence - 1;
    if (previous <= log.lastDelivered()) {
      return previous == low ? lowDigest : log.decidedDigest(previous);
    }
    Slot slot = log.existing(previous);
    return slot == null || slot.accepted == null ? null : slot.accepted.digest();
  }

  /**
   * The proposal at {@code sequence - 1} for the application's checks: for the epoch's first
   * sequence the anchor's (null in the genesis epoch).
   */
  @Nullable Proposal previousProposal(long sequence) {
    long previous = sequence - 1;
    if (previous <= log.lastDelivered()) {
      return log.decidedProposal(previous);
    }
    Slot slot = log.existing(previous);
    return slot == null || slot.accepted == null ? null : slot.accepted.proposal();
  }
}
