package io.rubinbft.bft.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.CommitSignature;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Epoch;
import io.rubinbft.bft.Event;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.message.Commit;
import io.rubinbft.bft.message.FetchProposal;
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.message.ProposalBody;
import io.rubinbft.bft.message.SignedBytes;
import io.rubinbft.bft.message.ViewChange;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * View changes and new views name proposals by digest; a replica that lacks a body fetches it
 * (bft-core/README.md "Bodies by digest"). In every test replica 0, primary of view 0, proposes A
 * at 1 to replicas 0, 1 and 2 only, who prepare it but never see a commit; the request timer then
 * moves everyone to view 1 (primary 1), whose new view re-proposes A, a body replica 3 never had.
 */
class BodyFetchTest {

  private static final long TICKS = 1500;

  private final HandDrivenCluster cluster = new HandDrivenCluster(-1);
  private Digest a;
  private Proposal bodyOfA;

  /** The plain case: 3 fetches A from the new primary and decides it in view 1. */
  @Test
  void aReplicaLackingABodyFetchesItAndDecides() {
    boolean[] fetched = {false};
    proposeAWithoutReplicaThree();

    boolean decided =
        cluster.tickUntil(
            (from, to, message) -> {
              if (message instanceof FetchProposal fetch && from == 3) {
                fetched[0] |= fetch.digest().equals(a);
              }
              return afterViewZero(from, to, message);
            },
            () -> cluster.correctDecidedUpTo(1),
            TICKS);

    assertThat(fetched[0]).as("replica 3 fetched A's body").isTrue();
    assertThat(decided).as("every replica decides 1").isTrue();
    assertThat(cluster.decided.get(3).get(1L).digest()).isEqualTo(a);
    assertThat(cluster.replicas[3].status().view()).isEqualTo(1);
    assertThat(cluster.violations).isEmpty();
  }

  /**
   * A Byzantine new primary answers 3's fetch with another proposal at the same sequence (and the
   * others' answers are late): 3 keeps nothing of it ("wrong body"), takes the true body when it
   * comes, and installs the true new view.
   */
  @Test
  void aBodyThatDoesNotHashToTheDigestIsNotTaken() {
    proposeAWithoutReplicaThree();
    Proposal forged =
        new Proposal(
            1,
            bodyOfA.previous(),
            List.of(HandDrivenCluster.request("client-9", "forged")),
            bodyOfA.payload());

    boolean decided =
        cluster.tickUntil(
            (from, to, message) -> {
              if (message instanceof FetchProposal && from == 3 && to == 1) {
                cluster.send(1, 3, new ProposalBody(forged, 1));
                return false;
              }
              if (message instanceof ProposalBody && to == 3 && from != 1) {
                return cluster.replicas[3].status().drops().containsKey("wrong body");
              }
              return afterViewZero(from, to, message);
            },
            () -> cluster.correctDecidedUpTo(1),
            TICKS);

    assertThat(cluster.replicas[3].status().drops()).containsKey("wrong body");
    assertThat(cluster.replicas[3].status().drops())
        .doesNotContainKeys("bad new view", "wrong digest");
    assertThat(decided).as("every replica decides 1").isTrue();
    assertThat(cluster.decided.get(3).get(1L).digest()).isEqualTo(a);
    assertThat(cluster.violations).isEmpty();
  }

  /**
   * Replica 2 lies in its view change: a decision at 1 whose digest no replica holds a body for
   * (its commit signatures cannot be checked without one). Nobody completes that view change, so it
   * does not count; the wait for it times out, and view 1 installs from the other three.
   */
  @Test
  void aViewChangeNamingADigestNobodyHoldsDoesNotCount() {
    proposeAWithoutReplicaThree();
    Digest nobodys = new Digest(SimKeys.sha256(new byte[] {42}));
    Decision lie =
        new Decision(
            Proposal.hollow(1, Epoch.GENESIS.digest()),
            nobodys,
            0,
            List.of(
                new CommitSignature(2, new byte[] {1}), new CommitSignature(0, new byte[] {2})));
    ViewChange unsigned =
        new ViewChange(1, 0, Epoch.GENESIS.digest(), List.of(), lie, List.of(), 2, null);
    ViewChange lying =
        unsigned.withSignature(
            cluster.keys.crypto(2).sign(SignedBytes.viewChange(Epoch.GENESIS, unsigned)));
    boolean[] lied = {false};

    boolean installed =
        cluster.tickUntil(
            (from, to, message) -> {
              if (message instanceof ViewChange viewChange && from == 2 && viewChange != lying) {
                if (!lied[0] && viewChange.newView() == 1) {
                  lied[0] = true;
                  for (int replica : new int[] {0, 1, 3}) {
                    cluster.send(2, replica, lying);
                  }
                }
                return false;
              }
              return afterViewZero(from, to, message);
            },
            () -> viewInstalledAt(1, 0, 1, 3) && cluster.decided.get(3).containsKey(1L),
            TICKS);

    assertThat(lied[0]).isTrue();
    assertThat(installed).as("view 1 installs without the lying view change").isTrue();
    long unknown =
        List.of(0, 1, 2, 3).stream()
            .mapToLong(
                replica ->
                    cluster.replicas[replica].status().drops().getOrDefault("unknown body", 0L))
            .sum();
    assertThat(unknown).as("fetches of the lie's digest answered by nobody").isPositive();
    cluster.tickUntil(
        (from, to, message) -> afterViewZero(from, to, message) && from != 2, () -> false, 64);
    long timedOut =
        List.of(0, 1, 3).stream()
            .mapToLong(
                replica ->
                    cluster
                        .replicas[replica]
                        .status()
                        .drops()
                        .getOrDefault("body fetch timed out", 0L))
            .sum();
    assertThat(timedOut).as("the waits for the lie end at their deadline").isPositive();
    assertThat(cluster.violations).isEmpty();
  }

  /**
   * Bodies withheld: the new primary answers no fetch, so 3 gets A's body from another replica that
   * prepared it (any replica's answer is checked against the digest).
   */
  @Test
  void aNewPrimaryWithholdingBodiesDoesNotStallTheReplicaLackingThem() {
    proposeAWithoutReplicaThree();
    int[] answeredBy = {-1};

    boolean decided =
        cluster.tickUntil(
            (from, to, message) -> {
              if (message instanceof ProposalBody && to == 3) {
                if (from == 1) {
                  return false;
                }
                answeredBy[0] = from;
              }
              return afterViewZero(from, to, message);
            },
            () -> cluster.correctDecidedUpTo(1),
            TICKS);

    assertThat(decided).as("every replica decides 1").isTrue();
    assertThat(answeredBy[0]).as("another replica served A's body").isIn(0, 2);
    assertThat(cluster.decided.get(3).get(1L).digest()).isEqualTo(a);
    assertThat(cluster.violations).isEmpty();
  }

  /**
   * Bodies withheld by everyone: 3 cannot complete the new view; its wait ends at the deadline
   * (nothing of it kept), the other three install view 1 and decide, and 3 catches up through state
   * transfer, whose decisions carry their bodies.
   */
  @Test
  void bodiesWithheldByEveryoneCostOnlyTheWaitAndStateTransferCatchesUp() {
    proposeAWithoutReplicaThree();

    boolean decided =
        cluster.tickUntil(
            (from, to, message) ->
                !(message instanceof ProposalBody) && afterViewZero(from, to, message),
            () -> cluster.correctDecidedUpTo(1),
            TICKS);

    assertThat(decided).as("every replica decides 1").isTrue();
    assertThat(cluster.decided.get(3).get(1L).digest()).isEqualTo(a);
    assertThat(cluster.replicas[3].status().view()).as("3 follows to view 1").isEqualTo(1);
    assertThat(cluster.violations).isEmpty();
  }

  /** View 0: A reaches 0, 1 and 2, who prepare it; no commit leaves anyone; 3 never sees A. */
  private void proposeAWithoutReplicaThree() {
    Request request = HandDrivenCluster.request("client-0", "tx-A");
    for (int replica = 0; replica < HandDrivenCluster.REPLICAS; replica++) {
      cluster.step(replica, new Event.ClientRequest(request));
    }
    cluster.tick(
        (from, to, message) -> {
          if (message instanceof PrePrepare prePrepare && prePrepare.view() == 0) {
            a = prePrepare.digest();
            bodyOfA = prePrepare.proposal();
            return to != 3;
          }
          return false;
        });
    assertThat(a).isNotNull();
  }

  /** Everything but view 0's pre-prepares to 3 and view 0's commits. */
  private static boolean afterViewZero(int unusedFrom, int to, Object message) {
    if (message instanceof PrePrepare prePrepare && prePrepare.view() == 0) {
      return to != 3;
    }
    return !(message instanceof Commit commit && commit.view() == 0);
  }

  private boolean viewInstalledAt(long view, int... replicas) {
    for (int replica : replicas) {
      var status = cluster.replicas[replica].status();
      if (status.view() != view || !status.viewInstalled()) {
        return false;
      }
    }
    return true;
  }
}
