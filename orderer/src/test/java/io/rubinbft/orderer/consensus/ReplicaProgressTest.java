package io.rubinbft.orderer.consensus;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Effects;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.RequestId;
import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.message.NewView;
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.message.Prepare;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** What a replica did, read from the effects of its steps. */
class ReplicaProgressTest {

  private record Observed(int requests, OptionalLong latencyNanos) {}

  private final ReplicaProgress progress = new ReplicaProgress();
  private final List<Observed> observed = new ArrayList<>();

  @Test
  void measuresFromAcceptanceToDecisionAndCountsViews() {
    progress.listen((requests, latency) -> observed.add(new Observed(requests, latency)));
    Proposal first = proposal(1, 3);
    Proposal second = proposal(2, 5);

    progress.afterSteps(List.of(persisting(accepted(first)), persisting(accepted(second))), 1_000);
    assertThat(progress.lastAccepted()).isEqualTo(2);
    progress.afterSteps(List.of(deciding(first)), 4_000);
    progress.afterSteps(
        List.of(persisting(new WalRecord.ViewInstalled(newView(1))), deciding(second)), 9_000);

    assertThat(observed)
        .containsExactly(
            new Observed(3, OptionalLong.of(3_000)), new Observed(5, OptionalLong.of(8_000)));
    assertThat(progress.decidedBatches()).isEqualTo(2);
    assertThat(progress.decidedRequests()).isEqualTo(8);
    assertThat(progress.viewChanges()).isEqualTo(1);
  }

  @Test
  void aDecisionAcceptedBeforeStartHasNoLatency() {
    progress.listen((requests, latency) -> observed.add(new Observed(requests, latency)));

    progress.afterSteps(List.of(deciding(proposal(7, 1))), 5_000);

    assertThat(observed).containsExactly(new Observed(1, OptionalLong.empty()));
    assertThat(progress.lastAccepted()).isZero();
  }

  private static Proposal proposal(long sequence, int requests) {
    List<Request> batch = new ArrayList<>();
    for (int i = 0; i < requests; i++) {
      batch.add(new Request(new RequestId("tx", sequence + "-" + i), new byte[] {1}));
    }
    return new Proposal(sequence, Digest.GENESIS, batch, new byte[0]);
  }

  private static WalRecord accepted(Proposal proposal) {
    Digest digest = new Digest(new byte[] {(byte) proposal.sequence()});
    return new WalRecord.Accepted(
        new PrePrepare(0, proposal.sequence(), digest, proposal, 0, new byte[0]),
        new Prepare(0, proposal.sequence(), digest, 1, new byte[0]));
  }

  private static NewView newView(long view) {
    return new NewView(view, List.of(), List.of(), 1, new byte[0]);
  }

  private static Effects persisting(WalRecord record) {
    return new Effects(List.of(record), List.of(), List.of(), List.of(), List.of(), List.of());
  }

  private static Effects deciding(Proposal proposal) {
    Decision decision = new Decision(proposal, Digest.GENESIS, 0, List.of());
    return new Effects(List.of(), List.of(), List.of(), List.of(decision), List.of(), List.of());
  }
}
