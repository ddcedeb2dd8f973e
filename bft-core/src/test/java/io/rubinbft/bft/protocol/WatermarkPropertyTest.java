package io.rubinbft.bft.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Epoch;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.message.Checkpoint;
import io.rubinbft.bft.message.Decisions;
import io.rubinbft.bft.sim.SimApplication;
import io.rubinbft.bft.sim.SimKeys;
import io.rubinbft.bft.spi.ReplicaServices;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * OSDI'99 section 4.3: the low watermark h and the window (h, h + L] against a naive reference that
 * remembers every checkpoint ever kept and recomputes h from scratch after each event: h is the
 * highest multiple of K this replica delivered for which a quorum of distinct replicas (itself
 * included) vouched for the digest it decided, each replica counted by the last checkpoint it sent
 * for that sequence (the log holds one per replica and sequence, so a replica that contradicts
 * itself only loses its own vote). Events are random deliveries and checkpoints from peers,
 * matching or not, at sequences behind, inside and far beyond the window. Two trials in three run
 * in an epoch anchored at a random sequence (mostly not a multiple of K), where checkpoints fall at
 * the anchor plus multiples of K and h starts at the anchor.
 */
class WatermarkPropertyTest {

  private static final long SEED = Long.getLong("property.seed", 20261121L);
  private static final int N = 4;
  private static final int SELF = 0;
  private static final ReplicaConfig CONFIG =
      new ReplicaConfig(
          N,
          SELF,
          4,
          1 << 16,
          2,
          8,
          4,
          500,
          1024,
          60,
          20,
          8,
          16,
          10_000,
          Decisions.MAX_ANSWER_BYTES);

  @Test
  void lowWatermarkAndWindowMatchTheNaiveReference() {
    Random random = new Random(SEED);
    for (int trial = 0; trial < 300; trial++) {
      runTrial(random, trial);
    }
  }

  private static void runTrial(Random random, int trial) {
    SimApplication application = new SimApplication();
    SimKeys keys = new SimKeys(N, trial);
    long anchor = trial % 3 == 0 ? 0 : 1 + random.nextInt(50);
    Context ctx =
        new Context(
            CONFIG,
            new ReplicaServices(
                keys.crypto(SELF), keys.signer(SELF, new Random(trial)), application, application),
            new Epoch(anchor, digest(anchor, 0)),
            anchor == 0 ? null : decision(anchor).proposal());
    Checkpoints checkpoints = new Checkpoints(ctx);
    Reference reference = new Reference(anchor);
    for (int event = 0; event < 200; event++) {
      if (random.nextInt(3) == 0) {
        long sequence = ctx.log.lastDelivered() + 1;
        ctx.log.delivered(decision(sequence));
        checkpoints.onDelivered(sequence, digest(sequence, 0));
        reference.delivered = sequence;
        if ((sequence - anchor) % CONFIG.checkpointInterval() == 0) {
          reference.kept.add(new long[] {SELF, sequence, 0});
        }
      } else {
        int sender = 1 + random.nextInt(N - 1);
        long sequence = anchor + CONFIG.checkpointInterval() * (1L + random.nextInt(20));
        int variant = random.nextInt(4) == 0 ? 1 : 0;
        checkpoints.onCheckpoint(
            new Checkpoint(sequence, digest(sequence, variant), sender, new byte[0]));
        reference.keep(sender, sequence, variant);
      }
      reference.recompute();
      String where = "seed " + SEED + " trial " + trial + " anchor " + anchor + " event " + event;
      assertThat(ctx.low).as(where).isEqualTo(reference.low);
      assertThat(ctx.lowDigest).as(where).isEqualTo(digest(reference.low, 0));
      assertThat(ctx.lowProof)
          .as(where)
          .hasSizeGreaterThanOrEqualTo(reference.low == anchor ? 0 : 3);
      long probe = random.nextLong(reference.low - 5, reference.low + 2L * CONFIG.window());
      assertThat(ctx.inWindow(probe))
          .as(where + " probe " + probe)
          .isEqualTo(probe > reference.low && probe <= reference.low + CONFIG.window());
      ctx.log.slot(reference.low + 1 + random.nextInt(CONFIG.window()));
      assertThat(ctx.log.all()).as(where).allMatch(slot -> slot.sequence > ctx.low);
    }
  }

  /** Everything kept, never forgotten; h recomputed from scratch. */
  private static final class Reference {
    final List<long[]> kept = new ArrayList<>();
    long delivered;
    long low;

    Reference(long anchor) {
      delivered = anchor;
      low = anchor;
    }

    /**
     * A replica keeps a peer's checkpoint above h and at most 2L beyond h or beyond what it
     * delivered (the paper's log bound), if it still retains the decision there; its own it always
     * keeps.
     */
    void keep(int sender, long sequence, int variant) {
      if (sequence > Math.max(low, delivered - CONFIG.retainedDecisions())
          && sequence <= Math.max(low, delivered) + 2L * CONFIG.window()) {
        kept.add(new long[] {sender, sequence, variant});
      }
    }

    void recompute() {
      long oldest = Math.max(low, delivered - CONFIG.retainedDecisions());
      for (long sequence = delivered; sequence > oldest; sequence--) {
        Set<Long> vouching = new HashSet<>();
        for (long[] checkpoint : kept) {
          if (checkpoint[1] == sequence) {
            if (checkpoint[2] == 0) {
              vouching.add(checkpoint[0]);
            } else {
              vouching.remove(checkpoint[0]);
            }
          }
        }
        if (vouching.size() >= 3) {
          low = sequence;
          return;
        }
      }
    }
  }

  private static Decision decision(long sequence) {
    Proposal proposal = new Proposal(sequence, digest(sequence - 1, 0), List.of(), new byte[0]);
    return new Decision(proposal, digest(sequence, 0), 0, List.of());
  }

  /** This replica decided variant 0 at every sequence; variant 1 is what a liar vouches for. */
  private static Digest digest(long sequence, int variant) {
    if (sequence == 0) {
      return Digest.GENESIS;
    }
    byte[] bytes = new byte[32];
    for (int i = 0; i < 8; i++) {
      bytes[i] = (byte) (sequence >>> (8 * i));
    }
    bytes[8] = (byte) variant;
    return new Digest(bytes);
  }
}
