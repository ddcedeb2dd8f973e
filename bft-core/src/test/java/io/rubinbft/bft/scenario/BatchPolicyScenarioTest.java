package io.rubinbft.bft.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.BatchPolicy;
import io.rubinbft.bft.Effects;
import io.rubinbft.bft.Event;
import io.rubinbft.bft.Outbound;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.RequestId;
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.protocol.Replica;
import io.rubinbft.bft.sim.Cluster;
import io.rubinbft.bft.sim.SimApplication;
import io.rubinbft.bft.sim.SimKeys;
import io.rubinbft.bft.spi.ProposalAssembler;
import io.rubinbft.bft.spi.ReplicaServices;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The application's batch policy shapes the primary's batches: its limits replace the replica
 * config's, a request it places ALONE gets a proposal of its own, one it DROPs leaves the pool.
 */
class BatchPolicyScenarioTest {

  /** Keys starting with "alone" go alone, "drop" are dropped; at most {@code maxCount} a batch. */
  private record KeyedPolicy(int maxCount) implements ProposalAssembler {

    @Override
    public byte[] assemble(long sequence, List<Request> batch, Proposal previous) {
      return new SimApplication().assemble(sequence, batch, previous);
    }

    @Override
    public BatchPolicy batchPolicy(Proposal previous, BatchPolicy configured) {
      return new BatchPolicy(
          maxCount,
          configured.maxBytes(),
          request ->
              request.id().key().startsWith("alone")
                  ? BatchPolicy.Placement.ALONE
                  : request.id().key().startsWith("drop")
                      ? BatchPolicy.Placement.DROP
                      : BatchPolicy.Placement.WITH_OTHERS);
    }
  }

  @Test
  void aloneRequestsGetTheirOwnProposalAndDroppedOnesAreNeverProposed() {
    Replica primary = primary(4);
    List<List<String>> batches =
        proposeAll(primary, "tx-1", "tx-2", "alone-1", "tx-3", "drop-1", "tx-4", "alone-2");

    // tx-1 is proposed at once (cut on idle, BatchingScenarioTest); tx-2 cannot share a batch with
    // the ALONE request that follows it.
    assertThat(batches)
        .containsExactly(
            List.of("tx-1"),
            List.of("tx-2"),
            List.of("alone-1"),
            List.of("tx-3", "tx-4"),
            List.of("alone-2"));
    assertThat(primary.status().pendingRequests()).isEqualTo(6);
  }

  @Test
  void thePolicysCountLimitReplacesTheConfiguredOne() {
    List<List<String>> batches = proposeAll(primary(2), "a", "b", "c", "d", "e");

    // "a" is proposed at once (cut on idle); the rest wait for full batches of the policy's two.
    assertThat(batches).containsExactly(List.of("a"), List.of("b", "c"), List.of("d", "e"));
  }

  private static Replica primary(int maxCount) {
    SimKeys keys = new SimKeys(4, 1);
    SimApplication application = new SimApplication();
    ReplicaServices services =
        new ReplicaServices(
            keys.crypto(0), keys.signer(0, new Random(1)), new KeyedPolicy(maxCount), application);
    return Replica.start(Cluster.simConfig(4), services);
  }

  /** Submits the keys, lets the batch timeout pass, and returns the proposed batches' keys. */
  private static List<List<String>> proposeAll(Replica primary, String... keys) {
    List<Effects> effects = new ArrayList<>();
    for (String key : keys) {
      effects.add(
          primary.step(new Event.ClientRequest(new Request(new RequestId("c", key), new byte[8]))));
    }
    for (int tick = 0; tick < 5; tick++) {
      effects.add(primary.step(new Event.Tick()));
    }
    List<List<String>> batches = new ArrayList<>();
    for (Effects step : effects) {
      List<Outbound> sent = new ArrayList<>(step.sendNow());
      sent.addAll(step.sendAfterPersist());
      for (Outbound out : sent) {
        if (out.message() instanceof PrePrepare prePrepare) {
          batches.add(prePrepare.proposal().requests().stream().map(r -> r.id().key()).toList());
        }
      }
    }
    return batches;
  }
}
