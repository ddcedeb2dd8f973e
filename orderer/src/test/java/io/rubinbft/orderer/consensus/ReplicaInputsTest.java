package io.rubinbft.orderer.consensus;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.orderer.memory.MemoryBudgets;
import io.rubinbft.orderer.memory.MessageLimits;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The replica thread's input queue: bounded in bytes per source. */
class ReplicaInputsTest {

  private static final long BUDGET = 64 << 10;
  private static final int MESSAGE = 1 << 10;
  private static final long CHARGED = MESSAGE + MemoryBudgets.ITEM_OVERHEAD_BYTES;

  private final ReplicaInputs<String> inputs = new ReplicaInputs<>(BUDGET, BUDGET);

  @Test
  void aFloodingPeerCannotCrowdOutAnotherPeerOrTheClients() {
    int accepted = 0;
    for (int i = 0; i < 10_000; i++) {
      accepted += inputs.offerPeer(0, "flood " + i, MESSAGE) ? 1 : 0;
    }

    assertThat(accepted).isEqualTo((int) (BUDGET / CHARGED));
    assertThat(inputs.peerBytes(0)).isLessThanOrEqualTo(BUDGET);
    assertThat(inputs.offerPeer(1, "vote", MESSAGE)).as("another peer").isTrue();
    assertThat(inputs.offerClient("envelope", MESSAGE)).as("a client").isTrue();
  }

  /**
   * The replica thread takes the sources in turn, so what a flooding peer queued (each vote a
   * signature check) delays another peer's vote or a client's request by one of its inputs per
   * turn, not by all of them.
   */
  @Test
  void theReplicaTakesTheSourcesInTurnSoAFloodersBacklogDelaysOthersByOneInputEach()
      throws Exception {
    while (inputs.offerPeer(0, "flood", MESSAGE)) {}
    inputs.offerPeer(1, "vote", MESSAGE);
    inputs.offerClient("envelope", MESSAGE);
    inputs.offerPeer(1, "second vote", MESSAGE);

    List<ReplicaInputs.Queued<String>> taken = new ArrayList<>();
    taken.add(inputs.poll(1, TimeUnit.SECONDS));
    inputs.drainTo(taken, 5);
    assertThat(taken.stream().map(ReplicaInputs.Queued::input).toList())
        .containsExactly("flood", "vote", "envelope", "flood", "second vote", "flood");
    inputs.drainTo(taken, Integer.MAX_VALUE);
    assertThat(taken).hasSize((int) (BUDGET / CHARGED) + 3);
  }

  @Test
  void clientsFillTheirOwnBudgetOnlyAndPeersStillGetThrough() {
    while (inputs.offerClient("envelope", MESSAGE)) {}

    assertThat(inputs.clientBytes()).isLessThanOrEqualTo(inputs.clientBudget());
    assertThat(inputs.offerPeer(2, "commit", MESSAGE)).isTrue();
  }

  @Test
  void aSourceGetsItsBudgetBackWhenTheReplicaReleasedWhatItTook() throws Exception {
    while (inputs.offerPeer(0, "flood", MESSAGE)) {}
    List<ReplicaInputs.Queued<String>> taken = new ArrayList<>();
    inputs.drainTo(taken, Integer.MAX_VALUE);

    assertThat(inputs.offerPeer(0, "still held", MESSAGE))
        .as("taken but not yet stepped: still counted")
        .isFalse();
    taken.forEach(ReplicaInputs.Queued::release);
    assertThat(inputs.peerBytes(0)).isZero();
    assertThat(inputs.offerPeer(0, "after release", MESSAGE)).isTrue();
  }

  @Test
  void oneLargeMessageOverItsLanesBudgetPassesAloneAndNoSecondLargeOneWithIt() {
    assertThat(inputs.offerPeer(0, "new view", 4 * BUDGET)).isTrue();
    assertThat(inputs.offerPeer(0, "proposal", MessageLimits.LARGE_MESSAGE_BYTES + 1)).isFalse();
  }

  /**
   * A maximal proposal waiting for the replica's step (larger than the peer's whole budget) leaves
   * that peer's votes their own lane: before the lanes, every vote of that peer was refused until
   * the replica had stepped the proposal. And neither lane takes the other's room: a peer whose
   * small lane is full still gets its proposal through, and its votes still fill their whole lane
   * beside it.
   */
  @Test
  void aMaximalProposalWaitingNeverMakesThatPeersVotesRefused() {
    ReplicaInputs<String> standard =
        new ReplicaInputs<>(
            MemoryBudgets.standard().clientInputBytes(), MemoryBudgets.standard().peerInputBytes());
    long lane = MemoryBudgets.standard().peerInputBytes();
    int vote = 300;
    long voteCharged = (long) vote + MemoryBudgets.ITEM_OVERHEAD_BYTES;

    assertThat(standard.offerPeer(0, "proposal", 10 << 20)).isTrue();
    int votes = 0;
    while (standard.offerPeer(0, "vote " + votes, vote)) {
      votes++;
    }
    assertThat(votes).as("votes beside the proposal").isEqualTo((int) (lane / voteCharged));

    ReplicaInputs<String> votesFirst =
        new ReplicaInputs<>(
            MemoryBudgets.standard().clientInputBytes(), MemoryBudgets.standard().peerInputBytes());
    while (votesFirst.offerPeer(1, "vote", vote)) {}
    assertThat(votesFirst.offerPeer(1, "proposal", 10 << 20))
        .as("a proposal after a full lane of votes")
        .isTrue();
    assertThat(votesFirst.offerPeer(1, "answer", MessageLimits.LARGE_MESSAGE_BYTES + 1))
        .as("a second large message beside a maximal one")
        .isFalse();
    assertThat(votesFirst.peerBytes(1)).isLessThanOrEqualTo(lane + (10 << 20) + 128);
  }

  /** A peer's inputs of both lanes are taken in the one order they came. */
  @Test
  void aPeersSmallAndLargeInputsAreTakenInTheOrderTheyCame() throws Exception {
    inputs.offerPeer(0, "prepare 1", MESSAGE);
    inputs.offerPeer(0, "pre-prepare 2", 4 * BUDGET);
    inputs.offerPeer(0, "prepare 2", MESSAGE);

    List<ReplicaInputs.Queued<String>> taken = new ArrayList<>();
    inputs.drainTo(taken, Integer.MAX_VALUE);
    assertThat(taken.stream().map(ReplicaInputs.Queued::input).toList())
        .containsExactly("prepare 1", "pre-prepare 2", "prepare 2");
    taken.forEach(ReplicaInputs.Queued::release);
    assertThat(inputs.peerBytes(0)).isZero();
  }

  @Test
  void aRemovedClientInputGivesItsBytesBack() {
    inputs.offerClient("envelope", MESSAGE);

    assertThat(inputs.removeClient("envelope")).isTrue();
    assertThat(inputs.clientBytes()).isZero();
    assertThat(inputs.removeClient("envelope")).isFalse();
  }

  /**
   * A peer whose inputs each cost the replica thread 10 ms (messages with bad or expensive
   * signatures) against one whose votes cost 0.1 ms each, one every 10 ms, and a client's request
   * every 10 ms, for 20 simulated seconds: the flooder gets its share of the thread and no more,
   * and the votes and the requests are each taken within 50 ms of their arrival (a few of the
   * flooder's steps: the turns). Without the time budget (a share of 1 and an endless burst: the
   * turns alone) the flooder took 99% of the thread and the others' waits grew to 400 ms.
   */
  @Test
  void aPeerWhoseInputsAreExpensiveGetsItsTimeShareOfTheReplicaThreadAndNoMore() {
    long[] now = {0};
    ReplicaInputs.PeerTime time = ReplicaInputs.PeerTime.DEFAULT;
    ReplicaInputs<String> timed = new ReplicaInputs<>(BUDGET, BUDGET, time, () -> now[0]);
    long flood = TimeUnit.MILLISECONDS.toNanos(10);
    long vote = TimeUnit.MICROSECONDS.toNanos(100);
    long every = TimeUnit.MILLISECONDS.toNanos(10);
    long end = TimeUnit.SECONDS.toNanos(20);
    long floodTime = 0;
    long longestWait = 0;
    long nextArrival = 0;
    Map<String, Long> arrived = new HashMap<>();
    int arrivals = 0;
    List<ReplicaInputs.Queued<String>> batch = new ArrayList<>();
    while (now[0] < end) {
      while (timed.offerPeer(0, "flood", MESSAGE)) {}
      while (nextArrival <= now[0]) {
        String name = "vote " + arrivals;
        String request = "request " + arrivals;
        timed.offerPeer(1, name, MESSAGE);
        timed.offerClient(request, MESSAGE);
        arrived.put(name, nextArrival);
        arrived.put(request, nextArrival);
        arrivals++;
        nextArrival += every;
      }
      batch.clear();
      if (timed.drainTo(batch, 1) == 0) {
        now[0] += TimeUnit.MILLISECONDS.toNanos(1); // idle until something may be taken
        continue;
      }
      ReplicaInputs.Queued<String> taken = batch.getFirst();
      boolean flooded = taken.input().equals("flood");
      long cost = flooded ? flood : vote;
      if (!flooded) {
        longestWait = Math.max(longestWait, now[0] - arrived.remove(taken.input()));
      }
      now[0] += cost;
      taken.charge(cost);
      taken.release();
      floodTime += flooded ? cost : 0;
    }
    ReplicaInputs.PeerTime share = ReplicaInputs.PeerTime.DEFAULT;
    assertThat(floodTime)
        .as("the flooder's time on the replica thread in 20 s")
        .isLessThanOrEqualTo((long) (end * share.share()) + share.burstNanos() + flood);
    assertThat(longestWait)
        .as("the longest wait of a vote or a request")
        .isLessThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(50));
  }

  /**
   * A peer that spent its time budget is skipped, its inputs kept, and gets turns once refilled.
   */
  @Test
  void aPeerOverItsTimeBudgetWaitsWithItsInputsKeptUntilItRefilled() {
    long[] now = {0};
    ReplicaInputs.PeerTime time = new ReplicaInputs.PeerTime(0.5, 1_000);
    ReplicaInputs<String> timed = new ReplicaInputs<>(BUDGET, BUDGET, time, () -> now[0]);
    timed.offerPeer(0, "first", MESSAGE);
    timed.offerPeer(0, "second", MESSAGE);
    timed.offerClient("envelope", MESSAGE);
    List<ReplicaInputs.Queued<String>> taken = new ArrayList<>();
    timed.drainTo(taken, 1);
    taken.getFirst().charge(3_000); // 2,000 ns in debt: 4,000 ns to refill to a positive balance

    timed.drainTo(taken, 10);
    assertThat(taken.stream().map(ReplicaInputs.Queued::input))
        .containsExactly("first", "envelope");
    now[0] += 4_000;
    assertThat(timed.drainTo(taken, 10)).isZero();
    now[0] += 2;
    timed.drainTo(taken, 10);
    assertThat(taken.getLast().input()).isEqualTo("second");
  }
}
