package io.rubinbft.bft.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Event;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.message.Commit;
import io.rubinbft.bft.message.Complaint;
import io.rubinbft.bft.message.FetchProposal;
import io.rubinbft.bft.message.Message;
import io.rubinbft.bft.message.NewView;
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.message.Prepare;
import io.rubinbft.bft.message.ProposalBody;
import io.rubinbft.bft.message.ViewChange;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The audit's cross-view fork (issue 17's reproduction), as regression tests: four real replicas,
 * each view cutting off a different one, so that every replica signs commits for both proposals at
 * sequence 1 in different views. Before commit signatures named their view, those signatures added
 * up to a quorum for each proposal ("(2) unique certificate") and correct replicas decided
 * differently ("(1) agreement"). Now only commits of one view form a certificate, and a replica
 * signs k in view v only after signing k - 1 in v (or deciding it). Each scenario runs its schedule
 * to the end, then heals the network and requires every correct replica to decide sequence 1 with
 * no invariant violated. Deterministic; replay: {@code ./test.sh -pl bft-core
 * -Dtest=CrossViewCommitForkTest}.
 */
class CrossViewCommitForkTest {

  /** Ticks a phase may take to reach its goal; past it the schedule moves on. */
  private static final long PHASE_TICKS = 1500;

  private static final HandDrivenCluster.Network EVERYTHING = (from, to, message) -> true;

  private HandDrivenCluster cluster;

  /** The digest replica 0 proposed at 1 in view 0 (A). */
  private Digest proposedInViewZero;

  /**
   * All four replicas correct; only lost and delayed messages. Views 0, 2, 3, 4, 6 and 7 each run
   * with one replica cut off and exactly one replica collecting a prepared certificate and signing:
   * A is signed by 1 (view 0), 3 (view 3) and 2 (view 6), B by 2 (view 2), 1 (view 4) and 0 (view
   * 7). Then the commits for A reach 3 and those for B reach 0, late.
   */
  @Test
  void forkWithoutAnyByzantineReplica() {
    cluster = new HandDrivenCluster(-1);
    proposeAInViewZeroPreparedOnlyByOne();
    phase(2, new int[] {0, 2, 3}, 2);
    phase(3, new int[] {0, 1, 3}, 3);
    phase(4, new int[] {0, 1, 2}, 1);
    phase(6, new int[] {0, 2, 3}, 2);
    phase(7, new int[] {0, 1, 3}, 0);
    for (Commit commit : List.copyOf(cluster.emitted)) {
      int to = commit.digest().equals(proposedInViewZero) ? 3 : 0;
      if (commit.sender() != to && commit.sequence() == 1) {
        cluster.step(to, new Event.Received(commit.sender(), commit));
      }
    }
    healAndCheck();
  }

  /**
   * Replica 0 is Byzantine; its one lie is a commit signature for A in view 3, where it did not
   * prepare A. View 2 among {0, 2, 3} prepares B at 2 only; view 3 among {0, 1, 3} re-proposes A
   * (1's view-0 certificate) and only 3 prepares it; 1's view-0 commit and 0's forged view-3 commit
   * reach 3. View 4 among {0, 1, 2} re-proposes B (view 2 beats view 0).
   */
  @Test
  void correctReplicasDecideDifferentProposalsAtOneSequence() {
    cluster = new HandDrivenCluster(0);
    proposeAInViewZeroPreparedOnlyByOne();

    HandDrivenCluster.Network viewTwo =
        (from, to, message) ->
            in(from, 0, 2, 3)
                && in(to, 0, 2, 3)
                && (message instanceof ViewChange
                    || message instanceof Complaint
                    || message instanceof NewView
                    || fetchesBodies(message)
                    || (message instanceof PrePrepare && viewOf(message) == 2)
                    || (message instanceof Prepare && viewOf(message) == 2 && to == 2));
    cluster.tickUntil(
        viewTwo,
        () ->
            cluster.replicas[3].status().view() == 2
                && cluster.replicas[3].status().viewInstalled()
                && cluster.emitted.stream().anyMatch(c -> c.sender() == 2),
        PHASE_TICKS);

    HandDrivenCluster.Network viewThree =
        (from, to, message) ->
            in(from, 0, 1, 3)
                && in(to, 0, 1, 3)
                && (message instanceof ViewChange
                    || fetchesBodies(message)
                    || message instanceof Complaint
                    || (message instanceof NewView && viewOf(message) == 3)
                    || (message instanceof Prepare && viewOf(message) == 3 && to == 3)
                    || (message instanceof Commit && in(from, 0, 1) && to == 3));
    boolean[] forged = {false};
    cluster.tickUntil(
        viewThree,
        () -> {
          if (!forged[0]
              && cluster.replicas[3].status().view() == 3
              && cluster.replicas[3].status().viewInstalled()) {
            forged[0] = true;
            Digest a = proposedInViewZero;
            cluster.send(0, 3, new Commit(3, 1, a, 0, cluster.keys.signCommit(0, 3, a, 12345L)));
          }
          return cluster.decided.get(3).containsKey(1L);
        },
        PHASE_TICKS);
    assertThat(forged[0]).as("view 3 was installed at replica 3 and the lie sent").isTrue();

    HandDrivenCluster.Network viewFour =
        (from, to, message) -> in(from, 0, 1, 2) && in(to, 0, 1, 2) && viewOf(message) >= 4;
    cluster.tickUntil(
        viewFour,
        () -> cluster.decided.get(1).containsKey(1L) && cluster.decided.get(2).containsKey(1L),
        PHASE_TICKS);
    healAndCheck();
  }

  /** A reaches 1 and 3 in view 0, B reaches 2; only 1 collects a prepared certificate for A. */
  private void proposeAInViewZeroPreparedOnlyByOne() {
    Request a = HandDrivenCluster.request("client-0", "tx-A");
    Request b = HandDrivenCluster.request("client-1", "tx-B");
    cluster.step(1, new Event.ClientRequest(a));
    cluster.step(3, new Event.ClientRequest(a));
    cluster.step(2, new Event.ClientRequest(b));
    cluster.step(0, new Event.ClientRequest(a));
    cluster.tick(
        (from, to, message) -> {
          if (message instanceof PrePrepare p && p.view() == 0 && from == 0) {
            proposedInViewZero = p.digest();
          }
          return message instanceof PrePrepare && from == 0 && (to == 1 || to == 3);
        });
    cluster.tick((from, to, message) -> message instanceof Prepare && from == 3 && to == 1);
    assertThat(proposedInViewZero).isNotNull();
  }

  /**
   * Runs view {@code target} among {@code members} (view changes up to it, its new view, its
   * pre-prepare at 1, and prepares at 1 to {@code preparer} only) until {@code preparer} signs a
   * commit in it, or the phase's ticks run out.
   */
  private void phase(long target, int[] members, int preparer) {
    HandDrivenCluster.Network network =
        (from, to, message) ->
            in(from, members)
                && in(to, members)
                && switch (message) {
                  case Complaint c -> c.view() <= target;
                  case ViewChange v -> v.newView() <= target;
                  case NewView n -> n.view() == target;
                  case PrePrepare p -> p.view() == target && p.sequence() == 1;
                  case Prepare p -> p.view() == target && p.sequence() == 1 && to == preparer;
                  case FetchProposal f -> true;
                  case ProposalBody b -> true;
                  default -> false;
                };
    boolean signed =
        cluster.tickUntil(
            network,
            () ->
                cluster.emitted.stream()
                    .anyMatch(c -> c.sender() == preparer && c.view() == target),
            PHASE_TICKS);
    assertThat(signed)
        .as("view %d among %s: replica %d signs", target, Arrays.toString(members), preparer)
        .isTrue();
  }

  /** Heals the network; every correct replica decides 1 and no invariant was ever violated. */
  private void healAndCheck() {
    boolean decided = cluster.tickUntil(EVERYTHING, () -> cluster.correctDecidedUpTo(1), 5000);
    assertThat(cluster.violations).as("invariant violations").isEmpty();
    assertThat(decided).as("every correct replica decides 1 after the heal").isTrue();
  }

  /** View changes and new views name proposals by digest; fetching their bodies is part of them. */
  private static boolean fetchesBodies(Message message) {
    return message instanceof FetchProposal || message instanceof ProposalBody;
  }

  private static boolean in(int x, int... set) {
    return Arrays.stream(set).anyMatch(s -> s == x);
  }

  private static long viewOf(Message message) {
    return switch (message) {
      case PrePrepare p -> p.view();
      case Prepare p -> p.view();
      case Commit c -> c.view();
      case ViewChange v -> v.newView();
      case Complaint c -> c.view();
      case NewView n -> n.view();
      default -> -1;
    };
  }
}
