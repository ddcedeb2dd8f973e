package io.rubinbft.bft.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Event;
import io.rubinbft.bft.ReplicaStatus;
import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.message.Checkpoint;
import io.rubinbft.bft.message.NewView;
import io.rubinbft.bft.message.PrePrepare;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A replica restarted past a stable checkpoint whose decision its recovered log does not hold (no
 * stable checkpoint at or above it in its write-ahead log, nor its decision among the last ones it
 * keeps, one window of them in the orderer; a kill -9 loses no appended record), or one that caught
 * up by state transfer so far past it that the decision left its memory, adopts the checkpoint a
 * new view proves, installs that view and keeps ordering; one whose log holds another decision
 * there still stops (a fork). Before, all stopped: the adoption demanded the replica's own decided
 * digest, as the adversary soak found with a restarted orderer node. Deterministic (keys seed 7);
 * replay: {@code mvn -B -o -pl bft-core -am test -Dtest=RestartedPastCheckpointTest
 * -Dsurefire.failIfNoSpecifiedTests=false}.
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
   * The catch-up variant: the victim is cut off while the others make a newer checkpoint stable,
   * move to view 1 (its new view names that checkpoint) and order more decisions than a replica
   * keeps in memory. Reconnected, the victim catches up by state transfer, from the others' ledgers
   * (archive reads), while the new view and the checkpoints that would move its low watermark are
   * lost on the way to it; then the new view arrives. It names a stable checkpoint above the
   * victim's low watermark and below what it delivered, whose decision it no longer holds.
   */
  @Test
  void replicaThatCaughtUpPastTheCheckpointsDecisionAdoptsItFromALateNewView() {
    HandDrivenCluster cluster = new HandDrivenCluster(-1);
    long victimLow = orderPastAStableCheckpoint(cluster);
    HandDrivenCluster.Network withoutVictim = (from, to, message) -> from != VICTIM && to != VICTIM;
    for (int key = 0; cluster.replicas[0].status().lowWatermark() <= victimLow; key++) {
      orderOne(cluster, withoutVictim, VICTIM, "cut off " + key);
    }

    // View 0's primary's proposals are lost: the others complain and install view 1.
    requestFromAllBut(cluster, VICTIM, "view change");
    assertThat(
            cluster.tickUntil(
                (from, to, message) ->
                    withoutVictim.delivers(from, to, message)
                        && !(from == 0 && message instanceof PrePrepare),
                () -> othersInstalled(cluster, 1),
                3000))
        .as("the others install view 1; %s", REPLAY)
        .isTrue();
    long stable = cluster.replicas[1].status().lowWatermark();
    assertThat(stable).as(REPLAY).isGreaterThan(victimLow);

    int retained = cluster.replicas[0].config().retainedDecisions();
    long target = stable + retained + 2L * cluster.replicas[0].config().checkpointInterval();
    for (int key = 0; cluster.replicas[0].status().lastDelivered() < target; key++) {
      orderOne(cluster, withoutVictim, VICTIM, "view 1 " + key);
    }
    long delivered = cluster.replicas[0].status().lastDelivered();

    HandDrivenCluster.Network lossyToVictim =
        (from, to, message) ->
            to != VICTIM || !(message instanceof NewView || message instanceof Checkpoint);
    assertThat(
            cluster.tickUntil(
                lossyToVictim,
                () -> cluster.replicas[VICTIM].status().lastDelivered() >= delivered,
                3000))
        .as("the victim catches up by state transfer; %s", REPLAY)
        .isTrue();
    ReplicaStatus caughtUp = cluster.replicas[VICTIM].status();
    assertThat(caughtUp.viewInstalled() && caughtUp.view() >= 1).as(REPLAY).isFalse();
    assertThat(caughtUp.lowWatermark()).as(REPLAY).isEqualTo(victimLow);
    assertThat(caughtUp.lastDelivered() - stable).as(REPLAY).isGreaterThanOrEqualTo(retained);

    HandDrivenCluster.Network withoutCheckpointsToVictim =
        (from, to, message) -> to != VICTIM || !(message instanceof Checkpoint);
    assertThat(
            cluster.tickUntil(
                withoutCheckpointsToVictim,
                () -> {
                  ReplicaStatus status = cluster.replicas[VICTIM].status();
                  return status.view() >= 1 && status.viewInstalled();
                },
                3000))
        .as("the victim installs view 1 from the late new view; %s", REPLAY)
        .isTrue();
    assertThat(cluster.replicas[VICTIM].status().lowWatermark()).as(REPLAY).isEqualTo(stable);

    // Once the others' retransmitted checkpoints move its low watermark, it votes again.
    for (int key = 0; key < 20 && !votedInView1After(cluster, delivered); key++) {
      orderOne(cluster, EVERYTHING, -1, "after the catch-up " + key);
    }
    assertThat(votedInView1After(cluster, delivered))
        .as("the victim votes in view 1; %s", REPLAY)
        .isTrue();
    assertThat(cluster.decided.get(VICTIM).lastKey()).as(REPLAY).isGreaterThan(delivered);
    assertThat(cluster.violations).as(REPLAY).isEmpty();
  }

  private static boolean votedInView1After(HandDrivenCluster cluster, long sequence) {
    return cluster.emitted.stream()
        .anyMatch(c -> c.sender() == VICTIM && c.view() == 1 && c.sequence() > sequence);
  }

  private static boolean othersInstalled(HandDrivenCluster cluster, long view) {
    for (int replica = 0; replica < HandDrivenCluster.REPLICAS; replica++) {
      ReplicaStatus status = cluster.replicas[replica].status();
      if (replica != VICTIM && !(status.view() == view && status.viewInstalled())) {
        return false;
      }
    }
    return true;
  }

  /** Orders one request, sent to every replica but {@code skipped}, over {@code network}. */
  private static void orderOne(
      HandDrivenCluster cluster, HandDrivenCluster.Network network, int skipped, String key) {
    ReplicaStatus watched = cluster.replicas[skipped == 0 ? 1 : 0].status();
    requestFromAllBut(cluster, skipped, key);
    assertThat(
            cluster.tickUntil(
                network,
                () ->
                    cluster.replicas[skipped == 0 ? 1 : 0].status().lastDelivered()
                        > watched.lastDelivered(),
                500))
        .as("request %s ordered; %s", key, REPLAY)
        .isTrue();
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
