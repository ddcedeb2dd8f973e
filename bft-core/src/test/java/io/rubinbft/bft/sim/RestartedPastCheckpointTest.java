package io.rubinbft.bft.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Event;
import io.rubinbft.bft.ReplicaStatus;
import io.rubinbft.bft.WalRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A replica restarted past a stable checkpoint whose decision its recovered log does not hold (its
 * write-ahead log starts after it, and the checkpoint's own record was lost in the crash) adopts
 * the checkpoint a new view proves, installs that view and keeps ordering; one whose log holds
 * another decision there still stops (a fork). Before, both stopped: the adoption demanded the
 * replica's own decided digest, as the adversary soak found with a restarted orderer node.
 * Deterministic (keys seed 7); replay: {@code mvn -B -o -pl bft-core -am test
 * -Dtest=RestartedPastCheckpointTest -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class RestartedPastCheckpointTest {

  private static final String REPLAY =
      "replay: mvn -B -o -pl bft-core -am test -Dtest=RestartedPastCheckpointTest"
          + " -Dsurefire.failIfNoSpecifiedTests=false";
  private static final int VICTIM = 3;
  private static final HandDrivenCluster.Network EVERYTHING = (from, to, message) -> true;

  /** View 0's primary is cut off, so the others move to view 1. */
  private static final HandDrivenCluster.Network WITHOUT_PRIMARY =
      (from, to, message) -> from != 0 && to != 0;

  @Test
  void replicaWithoutTheCheckpointsDecisionAdoptsItAndKeepsOrdering() {
    HandDrivenCluster cluster = new HandDrivenCluster(-1);
    long stable = orderPastAStableCheckpoint(cluster);
    long delivered = cluster.replicas[VICTIM].status().lastDelivered();
    cluster.restart(VICTIM, decidedAfter(cluster, stable, null));
    assertThat(cluster.replicas[VICTIM].status().lowWatermark()).isLessThan(stable);

    requestFromAllBut(cluster, 0, "after the restart");
    boolean ordered =
        cluster.tickUntil(
            WITHOUT_PRIMARY,
            () -> {
              ReplicaStatus status = cluster.replicas[VICTIM].status();
              return status.view() >= 1
                  && status.viewInstalled()
                  && cluster.decided.get(VICTIM).lastKey() > delivered;
            },
            3000);

    ReplicaStatus status = cluster.replicas[VICTIM].status();
    assertThat(ordered)
        .as("restarted replica installs view 1 and orders on: %s; %s", status, REPLAY)
        .isTrue();
    assertThat(status.lowWatermark()).as(REPLAY).isEqualTo(stable);
    // The new view re-proposed the sequence it delivered before the restart (certified above the
    // checkpoint); it votes for it again without a decision of its own to check it against.
    assertThat(cluster.emitted)
        .as(REPLAY)
        .anyMatch(c -> c.sender() == VICTIM && c.view() == 1 && c.sequence() == delivered);
    assertThat(cluster.violations).as(REPLAY).isEmpty();
  }

  @Test
  void replicaThatDecidedAnotherDigestAtTheCheckpointStillStops() {
    HandDrivenCluster cluster = new HandDrivenCluster(-1);
    long stable = orderPastAStableCheckpoint(cluster);
    byte[] other = new byte[32];
    Arrays.fill(other, (byte) 0x5a);
    cluster.restart(VICTIM, decidedAfter(cluster, stable - 1, new Digest(other)));

    requestFromAllBut(cluster, 0, "after the restart");
    assertThatThrownBy(() -> cluster.tickUntil(WITHOUT_PRIMARY, () -> false, 3000))
        .as(REPLAY)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("stable checkpoint at " + stable)
        .hasMessageContaining("but this replica decided");
  }

  /**
   * Orders one request at a time until every replica's stable checkpoint is at 8 or beyond and each
   * delivered one decision past it; returns that checkpoint's sequence.
   */
  private static long orderPastAStableCheckpoint(HandDrivenCluster cluster) {
    for (int key = 0; key < 40; key++) {
      long before = cluster.replicas[0].status().lastDelivered();
      requestFromAllBut(cluster, -1, "k" + key);
      assertThat(cluster.tickUntil(EVERYTHING, () -> allDelivered(cluster, before + 1), 500))
          .as("request k%d ordered; %s", key, REPLAY)
          .isTrue();
      cluster.tickUntil(EVERYTHING, () -> false, 30);
      long low = cluster.replicas[0].status().lowWatermark();
      if (low >= 8 && allAt(cluster, low, low + 1)) {
        return low;
      }
    }
    throw new AssertionError("no stable checkpoint with one decision past it; " + REPLAY);
  }

  private static boolean allDelivered(HandDrivenCluster cluster, long sequence) {
    return Arrays.stream(cluster.replicas).allMatch(r -> r.status().lastDelivered() >= sequence);
  }

  private static boolean allAt(HandDrivenCluster cluster, long low, long delivered) {
    return Arrays.stream(cluster.replicas)
        .allMatch(r -> r.status().lowWatermark() == low && r.status().lastDelivered() == delivered);
  }

  private static void requestFromAllBut(HandDrivenCluster cluster, int skipped, String key) {
    for (int replica = 0; replica < HandDrivenCluster.REPLICAS; replica++) {
      if (replica != skipped) {
        cluster.step(replica, new Event.ClientRequest(HandDrivenCluster.request("client", key)));
      }
    }
  }

  /**
   * The victim's write-ahead log as a restart finds it: its decisions after {@code after} (the
   * first one's digest replaced by {@code firstDigest} unless null), and no stable checkpoint.
   */
  private static List<WalRecord> decidedAfter(
      HandDrivenCluster cluster, long after, Digest firstDigest) {
    List<WalRecord> wal = new ArrayList<>();
    for (Decision decision : cluster.decided.get(VICTIM).tailMap(after, false).values()) {
      Decision recorded =
          wal.isEmpty() && firstDigest != null
              ? new Decision(
                  decision.proposal(), firstDigest, decision.view(), decision.certificate())
              : decision;
      wal.add(new WalRecord.Decided(recorded));
    }
    return wal;
  }
}
