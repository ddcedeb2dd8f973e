package io.rubinbft.orderer.consensus;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.Request;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** When a backup forwards what it holds: to the primary, then to all, never what is decided. */
class PendingForwardsTest {

  private static final long TIMEOUT = 200;

  @Test
  void aRequestGoesToThePrimaryThenToAllThenIsForgotten() {
    PendingForwards pending = new PendingForwards(10);
    pending.admitted(request("a"), 0);

    assertThat(pending.due(TIMEOUT - 1, TIMEOUT)).isEmpty();
    assertThat(steps(pending.due(TIMEOUT, TIMEOUT)))
        .containsExactly(PendingForwards.Step.TO_PRIMARY);
    assertThat(pending.due(2 * TIMEOUT - 1, TIMEOUT)).isEmpty();
    assertThat(steps(pending.due(2 * TIMEOUT, TIMEOUT)))
        .containsExactly(PendingForwards.Step.TO_ALL);
    assertThat(pending.due(10 * TIMEOUT, TIMEOUT)).isEmpty();
  }

  @Test
  void decidedRequestsAreNeverForwarded() {
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    PendingForwards pending = new PendingForwards(1000);
    List<Request> requests = IntStream.range(0, 200).mapToObj(i -> request("tx" + i)).toList();
    List<Request> decided = requests.stream().filter(r -> random.nextBoolean()).toList();
    for (int i = 0; i < requests.size(); i++) {
      pending.admitted(requests.get(i), i);
    }
    pending.decided(decision(decided));

    List<PendingForwards.Due> due = pending.due(TIMEOUT * 3, TIMEOUT);

    assertThat(due).as("seed %d", seed).hasSize(requests.size() - decided.size());
    assertThat(due.stream().map(d -> new String(d.envelope(), StandardCharsets.UTF_8)))
        .as("seed %d", seed)
        .doesNotContainAnyElementsOf(
            decided.stream().map(r -> new String(r.payload(), StandardCharsets.UTF_8)).toList());
  }

  @Test
  void theTrackedRequestsAreBoundedByThePool() {
    PendingForwards pending = new PendingForwards(2);
    pending.admitted(request("a"), 0);
    pending.admitted(request("a"), 0);
    pending.admitted(request("b"), 0);
    pending.admitted(request("c"), 0);

    assertThat(pending.due(TIMEOUT, TIMEOUT)).hasSize(2);
  }

  private static List<PendingForwards.Step> steps(List<PendingForwards.Due> due) {
    return due.stream().map(PendingForwards.Due::step).toList();
  }

  private static Request request(String txId) {
    return FabricRequests.request(txId, ("envelope " + txId).getBytes(StandardCharsets.UTF_8));
  }

  private static Decision decision(List<Request> requests) {
    return new Decision(
        new Proposal(1, Digest.GENESIS, requests, new byte[0]), Digest.GENESIS, 0, List.of());
  }
}
