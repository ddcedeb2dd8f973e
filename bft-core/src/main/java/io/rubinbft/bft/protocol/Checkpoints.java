package io.rubinbft.bft.protocol;

import io.rubinbft.bft.Digest;
import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.message.Checkpoint;
import io.rubinbft.bft.message.SignedBytes;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Checkpoints (OSDI'99 section 4.3): where the decided chain puts one ({@link SlotLog}: every K
 * decisions, or earlier once their proposals hold enough bytes) a replica signs the decided digest;
 * a quorum of matching checkpoints makes it stable, which moves the low watermark and garbage
 * collects the log below it.
 *
 * <p>A replica that caught up by state transfer has delivered far beyond its low watermark, and the
 * others made their checkpoints stable long ago. So each replica keeps retransmitting its own
 * checkpoint at its stable sequence, and a replica accepts checkpoints up to 2L beyond what it
 * delivered (not only beyond h) as long as it still retains the decision they vouch for: that is
 * how a caught-up replica moves h to the others' and can vote again.
 */
final class Checkpoints {

  private final Context ctx;
  private final TreeMap<Long, Map<Integer, Checkpoint>> received = new TreeMap<>();
  private final TreeMap<Long, Checkpoint> own = new TreeMap<>();

  Checkpoints(Context ctx) {
    this.ctx = ctx;
  }

  void onDelivered(long sequence, Digest digest) {
    long unverifiable = sequence - ctx.log.digestMemory();
    received.headMap(unverifiable, true).clear();
    own.headMap(unverifiable, true).clear();
    if (ctx.log.isCheckpoint(sequence)) {
      ctx.out.broadcastDurable(signOwn(sequence, digest));
    }
  }

  /**
   * Recovery: this replica's checkpoints above the stable one are not in the WAL (its decisions
   * are); sign them again, or a quorum of restarted replicas could never make them stable. They
   * leave with the next retransmission.
   */
  void signDelivered() {
    // A copy: with a quorum of one, signing makes the checkpoint stable, which counts them anew.
    for (long sequence : List.copyOf(ctx.log.checkpoints())) {
      Digest digest = ctx.log.decidedDigest(sequence);
      if (digest != null) {
        signOwn(sequence, digest);
      }
    }
  }

  private Checkpoint signOwn(long sequence, Digest digest) {
    byte[] signature = ctx.sign(SignedBytes.checkpoint(ctx.epoch, sequence, digest));
    Checkpoint checkpoint = new Checkpoint(sequence, digest, ctx.self, signature);
    own.put(sequence, checkpoint);
    record(checkpoint);
    return checkpoint;
  }

  /**
   * Whether {@link #onCheckpoint} would ignore this checkpoint whatever its signature: at or below
   * the stable checkpoint (the last of a quorum arrives after the checkpoint became stable), or
   * older than the decisions this replica retains.
   */
  boolean cannotCount(Checkpoint checkpoint) {
    long sequence = checkpoint.sequence();
    return sequence >= 1
        && (sequence <= ctx.low || sequence <= ctx.log.lastDelivered() - ctx.log.digestMemory());
  }

  void onCheckpoint(Checkpoint checkpoint) {
    long delivered = ctx.log.lastDelivered();
    long sequence = checkpoint.sequence();
    if (sequence <= ctx.low || sequence <= delivered - ctx.log.digestMemory()) {
      return;
    }
    if (sequence > Math.max(ctx.low, delivered) + 2L * ctx.config.window()) {
      ctx.drops.drop("outside window: checkpoint at " + sequence);
      return;
    }
    record(checkpoint);
  }

  private void record(Checkpoint checkpoint) {
    received
        .computeIfAbsent(checkpoint.sequence(), s -> new HashMap<>())
        .put(checkpoint.sender(), checkpoint);
    checkStable(checkpoint.sequence());
  }

  /** Re-checks stability after this replica delivers {@code sequence}. */
  void checkStable(long sequence) {
    Map<Integer, Checkpoint> votes = received.get(sequence);
    if (votes == null || sequence > ctx.log.lastDelivered() || sequence <= ctx.low) {
      return;
    }
    Digest mine = ctx.log.decidedDigest(sequence);
    if (mine == null) {
      return;
    }
    List<Checkpoint> proof =
        votes.values().stream()
            .filter(c -> c.digest().equals(mine))
            .sorted((a, b) -> Integer.compare(a.sender(), b.sender()))
            .limit(ctx.quorums.quorum())
            .toList();
    if (proof.size() == ctx.quorums.quorum()) {
      makeStable(sequence, mine, proof);
    }
  }

  /**
   * Adopts a stable checkpoint proven elsewhere (a new view), once this replica reached it.
   *
   * <p>The proof is a quorum of signed checkpoints, checked before the view is installed: a backup
   * checks every view change of the new view ({@link NewViewCheck}, "bad checkpoint proof" in
   * {@link MessageValidator}); a primary computes it from view changes it checked the same way on
   * receipt, and from its own, which carries its own stable checkpoint. So at least f + 1 correct
   * replicas decided {@code digest} at {@code sequence}, and since this replica delivered that
   * sequence it decided the same (agreement). When its log no longer holds that decision (a restart
   * whose write-ahead log starts after it, or a catch-up by state transfer that went past the
   * decisions kept in memory), it cannot compare but adopts the proven checkpoint, as state
   * transfer would. A decision it holds that differs is a fork: a safety violation, never hidden.
   */
  void adopt(long sequence, Digest digest, List<Checkpoint> proof) {
    if (sequence <= ctx.low || sequence > ctx.log.lastDelivered()) {
      return;
    }
    Digest mine = ctx.log.decidedDigest(sequence);
    if (mine != null && !digest.equals(mine)) {
      throw new IllegalStateException(
          "stable checkpoint at "
              + sequence
              + " is "
              + digest
              + " but this replica decided "
              + mine);
    }
    makeStable(sequence, digest, proof);
  }

  private void makeStable(long sequence, Digest digest, List<Checkpoint> proof) {
    ctx.low = sequence;
    ctx.lowDigest = digest;
    ctx.lowProof = List.copyOf(proof);
    ctx.out.persist(new WalRecord.StableCheckpoint(sequence, digest, ctx.lowProof));
    ctx.log.collectGarbage(sequence);
    received.headMap(sequence, true).clear();
    own.headMap(sequence, false).clear();
  }

  void retransmit() {
    own.values().forEach(ctx.out::broadcastNow);
  }
}
