package io.rubinbft.bft.sim;

import static org.assertj.core.api.Assertions.assertThat;

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
}
