package io.rubinbft.orderer.consensus;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.orderer.memory.MemoryBudgets;
import java.util.ArrayList;
import java.util.List;
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
  void oneMessageLargerThanTheBudgetPassesAloneAndNoSecondOneWithIt() {
    assertThat(inputs.offerPeer(0, "new view", 4 * BUDGET)).isTrue();
    assertThat(inputs.offerPeer(0, "vote", 1)).isFalse();
  }

  @Test
  void aRemovedClientInputGivesItsBytesBack() {
    inputs.offerClient("envelope", MESSAGE);

    assertThat(inputs.removeClient("envelope")).isTrue();
    assertThat(inputs.clientBytes()).isZero();
    assertThat(inputs.removeClient("envelope")).isFalse();
  }
}
