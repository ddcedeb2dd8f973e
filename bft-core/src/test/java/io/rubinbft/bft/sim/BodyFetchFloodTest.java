package io.rubinbft.bft.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.Quorums;
import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.message.Decisions;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Byzantine peers asking for proposal bodies without end ({@link Attack#BODY_FETCH_FLOOD}: 32
 * fetches a tick to every replica, of the latest proposals they saw named in any view, held or not)
 * get at most the byte bound per status interval from each correct replica: (q + 1) times a
 * backup's window bytes and a batch, what completing one new view can need (bft-core/README.md
 * "Bodies by digest"). Proposals are at the cap (four requests of the largest size) and the window
 * in bytes is one and a half of them, the orderer's ratio; the primary is cut off for a while so
 * that the flood asks for bodies of two views. Every correct replica still decides everything.
 * Before the bound was counted in bytes, a peer got (q + 1) x (L + 1) bodies per interval: 68 at
 * the cap for n = 4, over four times the bound. Replay one seed: {@code ./test.sh -pl bft-core
 * -Dtest=BodyFetchFloodTest -Dfetch.seed=N}.
 */
class BodyFetchFloodTest {

  private static final int REQUEST_BYTES = 16 << 10;
  private static final int BATCH_COUNT = 4;
  private static final long CAP = (long) BATCH_COUNT * REQUEST_BYTES;
  private static final int PHASE_BATCHES = 12;

  @Test
  void oneFloodingPeerGetsAtMostTheByteBoundPerInterval() {
    for (long seed : seeds(41)) {
      flood(4, seed, Set.of(3));
    }
  }

  /** At f = 2 two Byzantine identities each get the bound from each replica, no more. */
  @Test
  void twoFloodingPeersAtFTwoGetAtMostTheByteBoundEach() {
    for (long seed : seeds(43)) {
      flood(7, seed, Set.of(5, 6));
    }
  }

  private static void flood(int replicas, long seed, Set<Integer> flooders) {
    String replay =
        "seed "
            + seed
            + "; replay: ./test.sh -pl bft-core -Dtest=BodyFetchFloodTest -Dfetch.seed="
            + seed;
    try {
      flood(replicas, seed, flooders, replay);
    } catch (InvariantViolation violation) {
      throw new AssertionError(violation.getMessage() + "; " + replay, violation);
    }
  }

  private static void flood(int replicas, long seed, Set<Integer> flooders, String replay) {
    ReplicaConfig config = bigBodies(replicas);
    Cluster cluster = Cluster.of(replicas, seed, config);
    cluster.faults(0.02, 0.02, 3);
    for (int flooder : flooders) {
      cluster.makeByzantine(flooder, Set.of(Attack.BODY_FETCH_FLOOD));
    }
    cluster.submit(PHASE_BATCHES * BATCH_COUNT, REQUEST_BYTES);
    cluster.runUntilAllDecided(4_000);
    cluster.isolate(0);
    cluster.submit(PHASE_BATCHES * BATCH_COUNT, REQUEST_BYTES);
    cluster.runUntilAllDecided(4_000);
    cluster.heal();
    cluster.submit(PHASE_BATCHES * BATCH_COUNT, REQUEST_BYTES);
    cluster.runUntilAllDecided(4_000);
    cluster.runTicks(100);

    long bound =
        (new Quorums(replicas).quorum() + 1L)
            * (config.backupWindowBytes() + config.batchMaxBytes());
    for (int server = 0; server < replicas; server++) {
      if (flooders.contains(server)) {
        continue;
      }
      assertThat(cluster.decidedAt(server)).as(replay).isEqualTo(3 * PHASE_BATCHES * BATCH_COUNT);
      for (int flooder : flooders) {
        assertThat(cluster.mostBodyBytesInAnInterval(server, flooder))
            .as("request bytes of bodies %d sent %d in one interval; %s", server, flooder, replay)
            .isPositive()
            .isLessThanOrEqualTo(bound);
      }
    }
  }

  /**
   * {@link Cluster#simConfig} with proposals of four 16 KiB requests and a window of one and a half
   * of them in bytes, as the orderer sizes it at the cap.
   */
  static ReplicaConfig bigBodies(int replicas) {
    ReplicaConfig sim = Cluster.simConfig(replicas);
    return new ReplicaConfig(
        replicas,
        0,
        BATCH_COUNT,
        CAP,
        sim.batchTimeoutTicks(),
        sim.window(),
        sim.checkpointInterval(),
        sim.poolLimit(),
        REQUEST_BYTES,
        sim.requestTimeoutTicks(),
        sim.viewChangeTimeoutTicks(),
        sim.statusIntervalTicks(),
        2 * sim.window(),
        sim.decidedIdMemory(),
        Decisions.MAX_ANSWER_BYTES,
        CAP * 3 / 2);
  }

  private static List<Long> seeds(long first) {
    String single = System.getProperty("fetch.seed");
    return single != null
        ? List.of(Long.parseLong(single))
        : List.of(first, first + 100, first + 200);
  }
}
