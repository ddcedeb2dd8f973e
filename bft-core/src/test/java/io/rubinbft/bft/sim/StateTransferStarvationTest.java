package io.rubinbft.bft.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.message.Decisions;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A lagging replica catches up although a Byzantine replica claims an enormous height every tick
 * and answers no fetch ({@link Attack#STATUS_FLOOD}). Before sources rotated with a deadline, the
 * lagging replica asked the first peer that claimed a higher height and distrusted only senders of
 * invalid data: replica 3 decided 0 of 128 requests in 6,000 ticks. Seed 77, from the audit's
 * reproduction (issue 17). Replay: {@code ./test.sh -pl bft-core
 * -Dtest=StateTransferStarvationTest}.
 */
class StateTransferStarvationTest {

  private static final long SEED = 77;

  /** Replica 3 is cut off while 120 requests are decided, then 0 turns Byzantine and 3 rejoins. */
  private static long decideAfterHeal(Attack attack) {
    Cluster cluster = Cluster.of(4, SEED);
    cluster.isolate(3);
    cluster.submit(120);
    cluster.runUntilAllDecided(3000);
    assertThat(cluster.decidedAt(3)).as("replica 3 was cut off").isZero();
    cluster.heal();
    cluster.makeByzantine(0, Set.of(attack));
    cluster.submit(8);
    return cluster.runUntilAllDecided(6000);
  }

  @Test
  void silentByzantineReplicaDoesNotKeepALaggingReplicaBehind() {
    assertThat(decideAfterHeal(Attack.SILENT)).isLessThanOrEqualTo(6000);
  }

  @Test
  void floodOfLyingStatusesDoesNotStarveStateTransfer() {
    assertThat(decideAfterHeal(Attack.STATUS_FLOOD)).isLessThanOrEqualTo(6000);
  }

  /**
   * Issue 18: a Byzantine replica that asks every replica 32 times a tick for all decisions from
   * the first on, as many as there are, gets answers of at most {@link Decisions#MAX_COUNT}
   * decisions and at most a full read budget per status interval from each (plus the bucket it
   * starts with), the others order on, and a replica that was cut off still catches up from the
   * archives.
   */
  @Test
  void peerAskingForOldDecisionsWithoutEndCostsBoundedReadsPerInterval() {
    ReplicaConfig config = Cluster.simConfig(4);
    Cluster cluster = Cluster.of(4, SEED);
    cluster.makeByzantine(0, Set.of(Attack.ARCHIVE_FLOOD));
    cluster.isolate(3);
    cluster.submit((int) (3L * config.retainedDecisions() * config.batchMaxCount()));
    cluster.runUntilAllDecided(20_000);
    cluster.heal();
    cluster.runUntilAllDecided(6000);
    int[] before = new int[4];
    for (int server = 1; server < 4; server++) {
      before[server] = cluster.archiveReads(server, 0);
    }
    int intervals = 60;
    cluster.runTicks((long) intervals * config.statusIntervalTicks());

    // StateTransfer.ARCHIVE_BYTES_PER_INTERVAL: 32 full answers per status interval and peer, and
    // a full bucket to start with. Unpaced, the flood would have 256 reads per interval.
    int allowed = (intervals + 1) * 32;
    for (int server = 1; server < 4; server++) {
      assertThat(cluster.archiveReads(server, 0) - before[server])
          .as(
              "archive reads replica %d served the flood in %d intervals; seed %d",
              server, intervals, SEED)
          .isGreaterThan(intervals * 32 * 3 / 4)
          .isLessThanOrEqualTo(allowed);
    }
    assertThat(cluster.largestArchiveAnswer()).isLessThanOrEqualTo(Decisions.MAX_COUNT);
    assertThat(cluster.decidedAt(3)).isEqualTo(cluster.decidedAt(1));
  }
}
