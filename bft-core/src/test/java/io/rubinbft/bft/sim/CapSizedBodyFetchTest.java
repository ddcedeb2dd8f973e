package io.rubinbft.bft.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.Event;
import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.message.Commit;
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.message.ProposalBody;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The byte bound on answers to fetches (bft-core/README.md "Bodies by digest") leaves a correct
 * lagging replica all it needs: proposals at the cap (four requests of the largest size), a window
 * in bytes of one and a half or three and a half of them, and replica 3 never sees a pre-prepare or
 * commit of view 0. The first sequences are decided by 0, 1 and 2; then the primary fills its
 * window with proposals 0, 1 and 2 prepare but nobody commits, and the request timers move everyone
 * to view 1, whose view changes and new view name every body 3 lacks. Only one replica answers 3's
 * fetches, so everything 3 fetches comes within that one replica's budget for it. Per seed: how
 * many sequences are decided first, the window's bytes, and which replica answers. Replay one seed:
 * {@code ./test.sh -pl bft-core -Dtest=CapSizedBodyFetchTest -Dfetch.seed=N}.
 */
class CapSizedBodyFetchTest {

  private static final int REQUEST_BYTES = 16 << 10;
  private static final int BATCH_COUNT = 4;
  private static final long CAP = (long) BATCH_COUNT * REQUEST_BYTES;
  private static final long TICKS = 3000;

  @Test
  void aLaggingReplicaCompletesANewViewOfCapSizedProposalsFromOneSource() {
    String single = System.getProperty("fetch.seed");
    List<Long> seeds = single != null ? List.of(Long.parseLong(single)) : List.of(1L, 2L, 3L, 4L);
    for (long seed : seeds) {
      run(seed);
    }
  }

  private static void run(long seed) {
    Random random = new Random(seed);
    int decidedFirst = random.nextInt(3);
    long windowBytes = random.nextBoolean() ? CAP * 3 / 2 : CAP * 7 / 2;
    int source = random.nextInt(3);
    String replay =
        "seed %d (%d decided first, window %d bytes, bodies from %d); replay: ./test.sh -pl bft-core -Dtest=CapSizedBodyFetchTest -Dfetch.seed=%d"
            .formatted(seed, decidedFirst, windowBytes, source, seed);
    HandDrivenCluster cluster = new HandDrivenCluster(-1, config(windowBytes));
    int batches = decidedFirst + (int) (windowBytes / CAP);
    for (int i = 0; i < batches * BATCH_COUNT; i++) {
      var request = HandDrivenCluster.request("client-" + (i % 3), "tx-" + i, REQUEST_BYTES);
      for (int replica = 0; replica < HandDrivenCluster.REPLICAS; replica++) {
        cluster.step(replica, new Event.ClientRequest(request));
      }
    }
    long[] fetchedBytes = {0};

    boolean decided =
        cluster.tickUntil(
            (from, to, message) -> {
              if (message instanceof PrePrepare prePrepare && prePrepare.view() == 0) {
                return to != 3;
              }
              if (message instanceof Commit commit && commit.view() == 0) {
                return to != 3 && commit.sequence() <= decidedFirst;
              }
              if (message instanceof ProposalBody body && to == 3) {
                if (from != source) {
                  return false;
                }
                fetchedBytes[0] += body.proposal().requestBytes();
              }
              return true;
            },
            () -> cluster.correctDecidedUpTo(batches),
            TICKS);

    assertThat(decided).as("every replica decides %d; %s", batches, replay).isTrue();
    assertThat(cluster.replicas[3].status().view()).as(replay).isPositive();
    assertThat(fetchedBytes[0])
        .as("request bytes of bodies 3 fetched; %s", replay)
        .isGreaterThanOrEqualTo(CAP);
    assertThat(cluster.replicas[source].status().drops()).as(replay).doesNotContainKey("busy");
    assertThat(cluster.replicas[3].status().drops())
        .as(replay)
        .doesNotContainKey("body fetch timed out");
    assertThat(cluster.violations).as(replay).isEmpty();
  }

  /** {@link BodyFetchFloodTest#bigBodies} with the window's bytes given and a decision retained. */
  private static ReplicaConfig config(long windowBytes) {
    ReplicaConfig big = BodyFetchFloodTest.bigBodies(HandDrivenCluster.REPLICAS);
    return new ReplicaConfig(
        big.replicas(),
        big.self(),
        big.batchMaxCount(),
        big.batchMaxBytes(),
        big.batchTimeoutTicks(),
        big.window(),
        big.checkpointInterval(),
        big.poolLimit(),
        big.requestMaxBytes(),
        big.requestTimeoutTicks(),
        big.viewChangeTimeoutTicks(),
        big.statusIntervalTicks(),
        1,
        big.decidedIdMemory(),
        big.answerMaxBytes(),
        windowBytes);
  }
}
