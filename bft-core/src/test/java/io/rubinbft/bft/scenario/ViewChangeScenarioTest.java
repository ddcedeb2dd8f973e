package io.rubinbft.bft.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.sim.Attack;
import io.rubinbft.bft.sim.Cluster;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** OSDI'99 section 4.4 (and TOCS'02 4.5.2 for the timers): view change and new view. */
class ViewChangeScenarioTest {

  @Test
  void crashedPrimaryIsReplacedAndRequestsAreDecided() {
    Cluster cluster = Cluster.of(4, 11);
    cluster.crash(0);
    cluster.submit(10);
    cluster.runUntilAllDecided(2000);
    assertThat(cluster.status(1).view()).isGreaterThanOrEqualTo(1);
    assertThat(cluster.status(1).viewInstalled()).isTrue();
  }

  @Test
  void isolatedPrimaryRejoinsTheNewViewAfterHealing() {
    Cluster cluster = Cluster.of(4, 12);
    cluster.submit(4);
    cluster.runUntilAllDecided(500);
    cluster.isolate(0);
    cluster.submit(10);
    cluster.runUntilAllDecided(2000);
    cluster.heal();
    cluster.runUntilAllDecided(2000);
    assertThat(cluster.decidedAt(0)).isEqualTo(14);
    assertThat(cluster.status(0).view()).isEqualTo(cluster.status(1).view());
  }

  /**
   * Issue 18's partitioned backup: cut off while requests reach it, its request timer fires, but it
   * complains alone and no quorum follows; the others order on in their view. It must stay in their
   * view (before complaints it left alone for the next view and waited there, deciding only through
   * state transfer), so that after healing it orders in that view again and one more fault (here:
   * another backup crashing) leaves a quorum in one view, with no view change.
   */
  @Test
  void backupCutOffDoesNotLeaveTheOthersViewAlone() {
    Cluster cluster = Cluster.of(4, 18);
    cluster.submit(4);
    cluster.runUntilAllDecided(500);
    long view = cluster.status(1).view();
    cluster.isolate(2);
    cluster.submit(10);
    cluster.runUntilAllDecided(2000);
    cluster.runTicks(2000);
    assertThat(cluster.status(2).view()).isEqualTo(view);
    cluster.heal();
    cluster.runUntilAllDecided(2000);
    assertThat(cluster.decidedAt(2)).isEqualTo(14);
    cluster.crash(1);
    cluster.submit(6);
    cluster.runUntilAllDecided(2000);
    for (int replica : new int[] {0, 2, 3}) {
      assertThat(cluster.status(replica).view()).as("replica %d", replica).isEqualTo(view);
      assertThat(cluster.status(replica).viewInstalled()).isTrue();
    }
  }

  @Test
  void preparedProposalsSurviveTheViewChange() {
    Cluster cluster = Cluster.of(4, 13);
    cluster.submit(12);
    cluster.runTicks(4);
    cluster.crash(0);
    cluster.runUntilAllDecided(3000);
    for (int replica = 1; replica < 4; replica++) {
      assertThat(cluster.decidedAt(replica)).isEqualTo(12);
    }
  }

  @Test
  void censoringPrimaryIsDeposed() {
    Cluster cluster = Cluster.of(4, 14);
    cluster.makeByzantine(0, Set.of(Attack.CENSOR));
    cluster.submit(9);
    cluster.runUntilAllDecided(3000);
    assertThat(cluster.status(1).view()).isGreaterThanOrEqualTo(1);
  }

  @Test
  void equivocatingPrimaryDecidesNothingTwice() {
    Cluster cluster = Cluster.of(4, 15);
    cluster.makeByzantine(0, Set.of(Attack.EQUIVOCATE, Attack.SIGN_EVERYTHING));
    cluster.submit(20);
    cluster.runUntilAllDecided(3000);
    assertThat(cluster.decidedAt(1)).isEqualTo(20);
  }

  @Test
  void withoutAQuorumViewsDoNotRunAwayAndRecoverAfterHealing() {
    Cluster cluster = Cluster.of(4, 16);
    cluster.isolate(2);
    cluster.isolate(3);
    cluster.submit(5);
    cluster.runTicks(3000);
    // Timers run only once a quorum asks for a view, so a minority cannot race through views.
    assertThat(cluster.status(0).view()).isLessThanOrEqualTo(1);
    cluster.heal();
    cluster.runUntilAllDecided(3000);
    assertThat(cluster.decidedAt(3)).isEqualTo(5);
  }

  @Test
  void requestTimerRestartsInTheNewView() {
    Cluster cluster = Cluster.of(4, 17);
    cluster.crash(0);
    cluster.submit(6);
    cluster.runUntilAllDecided(2000);
    long view = cluster.status(1).view();
    cluster.submit(6);
    cluster.runUntilAllDecided(2000);
    // Requests waiting since before the view change must not depose the new, working primary.
    assertThat(cluster.status(1).view()).isEqualTo(view);
  }

  /**
   * The Byzantine replica alone collects commit certificates (it withholds its commits while a
   * correct replica is cut off), answers state transfer with tampered decisions, and asks for the
   * next view as soon as one is installed, so that its view change, carrying its certified last
   * decision, is in every new view's quorum. The new view must re-propose what the correct replicas
   * prepared from the stable checkpoint on, through that decision, so that they decide it again
   * (they cannot fetch it from anyone), instead of starting after it and waiting forever.
   */
  @Test
  void decisionsOnlyAByzantineReplicaHoldsAreDecidedAgain() {
    Cluster cluster = Cluster.of(4, 18);
    cluster.makeByzantine(
        3, Set.of(Attack.WITHHOLD_COMMITS, Attack.LYING_STATE_TRANSFER, Attack.EAGER_VIEW_CHANGE));
    cluster.isolate(2);
    cluster.submit(80);
    cluster.runTicks(300);
    assertThat(cluster.status(3).lastDelivered()).isGreaterThan(0);
    assertThat(cluster.status(0).lastDelivered()).isZero();
    assertThat(cluster.status(1).view()).isGreaterThanOrEqualTo(1);
    cluster.heal();
    cluster.runUntilAllDecided(3000);
    for (int replica = 0; replica < 3; replica++) {
      assertThat(cluster.decidedAt(replica)).isEqualTo(80);
    }
  }
}
