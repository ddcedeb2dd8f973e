package io.rubinbft.bft.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.BatchPolicy;
import io.rubinbft.bft.Effects;
import io.rubinbft.bft.Event;
import io.rubinbft.bft.Outbound;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.RequestId;
import io.rubinbft.bft.message.Decisions;
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.protocol.Replica;
import io.rubinbft.bft.sim.SimApplication;
import io.rubinbft.bft.sim.SimKeys;
import io.rubinbft.bft.spi.ProposalAssembler;
import io.rubinbft.bft.spi.ReplicaServices;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * When the primary cuts a batch (batching only while the protocol is busy, as Castro and Liskov's
 * later PBFT implementation does): at once when none of its proposals is undecided, and while one
 * is, only for a full batch or when the oldest request has waited the batch timeout.
 */
class BatchingScenarioTest {

  private static final int MAX_COUNT = 4;
  private static final int TIMEOUT_TICKS = 5;

  private Replica primary;
  private PolicyCounting assembler;

  /** The simulator's application, counting how often the primary asks it for a batch policy. */
  private static final class PolicyCounting implements ProposalAssembler {
    private final SimApplication application = new SimApplication();
    private int policies;

    @Override
    public byte[] assemble(long sequence, List<Request> batch, Proposal previous) {
      return application.assemble(sequence, batch, previous);
    }

    @Override
    public BatchPolicy batchPolicy(Proposal previous, BatchPolicy configured) {
      policies++;
      return application.batchPolicy(previous, configured);
    }
  }

  @BeforeEach
  void startPrimary() {
    ReplicaConfig config =
        new ReplicaConfig(
            4,
            0,
            MAX_COUNT,
            1 << 16,
            TIMEOUT_TICKS,
            16,
            4,
            500,
            1024,
            60,
            20,
            8,
            64,
            10_000,
            Decisions.MAX_ANSWER_BYTES);
    SimKeys keys = new SimKeys(4, 1);
    assembler = new PolicyCounting();
    primary =
        Replica.start(
            config,
            new ReplicaServices(
                keys.crypto(0), keys.signer(0, new Random(1)), assembler, new SimApplication()));
  }

  @Test
  void anIdlePrimaryProposesALoneRequestAtOnce() {
    List<PrePrepare> proposed = prePrepares(submit("tx-1"));

    assertThat(proposed).singleElement().satisfies(p -> assertThat(requestCount(p)).isEqualTo(1));
  }

  @Test
  void whileAProposalIsUndecidedAPartialBatchWaitsForTheTimeout() {
    submit("tx-1");
    assertThat(prePrepares(submit("tx-2"))).isEmpty();

    for (int tick = 1; tick < TIMEOUT_TICKS; tick++) {
      assertThat(prePrepares(primary.step(new Event.Tick()))).as("tick %d", tick).isEmpty();
    }
    List<PrePrepare> proposed = prePrepares(primary.step(new Event.Tick()));

    assertThat(proposed).singleElement().satisfies(p -> assertThat(requestCount(p)).isEqualTo(1));
    assertThat(proposed.getFirst().sequence()).isEqualTo(2);
  }

  @Test
  void whileAProposalIsUndecidedAFullBatchGoesAtOnce() {
    submit("tx-1");
    for (int i = 2; i <= MAX_COUNT; i++) {
      assertThat(prePrepares(submit("tx-" + i))).isEmpty();
    }
    List<PrePrepare> proposed = prePrepares(submit("tx-" + (MAX_COUNT + 1)));

    assertThat(proposed)
        .singleElement()
        .satisfies(p -> assertThat(requestCount(p)).isEqualTo(MAX_COUNT));
  }

  /**
   * A primary steps on every tick and every message; with nothing left to propose it must not ask
   * the application for a batch policy each time (Fabric's parses the previous block to find the
   * config in force: measured at a tenth of a primary's replica thread at 200 tx/s).
   */
  @Test
  void aPrimaryWithNothingToProposeDoesNotAskForABatchPolicy() {
    submit("tx-1");
    int afterProposing = assembler.policies;

    for (int tick = 0; tick < 3 * TIMEOUT_TICKS; tick++) {
      primary.step(new Event.Tick());
    }

    assertThat(afterProposing).isEqualTo(1);
    assertThat(assembler.policies).isEqualTo(afterProposing);
  }

  private Effects submit(String key) {
    return primary.step(
        new Event.ClientRequest(new Request(new RequestId("client", key), new byte[10])));
  }

  private static List<PrePrepare> prePrepares(Effects effects) {
    return effects.sendAfterPersist().stream()
        .map(Outbound::message)
        .filter(PrePrepare.class::isInstance)
        .map(PrePrepare.class::cast)
        .toList();
  }

  private static int requestCount(PrePrepare prePrepare) {
    return prePrepare.proposal().requests().size();
  }
}
