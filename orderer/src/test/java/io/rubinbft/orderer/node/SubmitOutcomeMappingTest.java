package io.rubinbft.orderer.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.Refusal;
import io.rubinbft.bft.RequestId;
import io.rubinbft.orderer.consensus.Admission;
import io.rubinbft.orderer.memory.PoolBytes;
import io.rubinbft.orderer.service.SubmitOutcome;
import org.hyperledger.fabric.protos.common.Status;
import org.junit.jupiter.api.Test;

/**
 * The Broadcast answer a client hears for each of the replica host's answers: Fabric's status and
 * the info texts clients and tests match on, the same as when bft-core's refusals were strings.
 */
class SubmitOutcomeMappingTest {

  private static final RequestId ID = new RequestId("client", "tx-1");

  private static SubmitOutcome outcome(Admission admission) {
    return ChannelRuntime.outcomeOf("tx-1", admission);
  }

  private static SubmitOutcome refused(Refusal refusal) {
    return outcome(new Admission.Refused(refusal));
  }

  @Test
  void admittedIsSuccess() {
    assertThat(outcome(new Admission.Admitted()).status()).isEqualTo(Status.SUCCESS);
  }

  @Test
  void aFullPoolNamesTheBoundItReached() {
    SubmitOutcome replicaPool = refused(new Refusal.PoolFull("100 requests pending"));
    assertThat(replicaPool.status()).isEqualTo(Status.SERVICE_UNAVAILABLE);
    assertThat(replicaPool.info())
        .isEqualTo("failed to submit request: request pool is full (100 requests pending)");

    assertThat(refused(new PoolBytes(1_000).refusal(900, 101).orElseThrow()).info())
        .isEqualTo(
            "failed to submit request: request pool is full (900 bytes pending on this channel,"
                + " at most 1000)");
  }

  @Test
  void aDecidedIdIsAlreadyProcessed() {
    SubmitOutcome outcome = refused(new Refusal.Duplicate(ID));
    assertThat(outcome.status()).isEqualTo(Status.SERVICE_UNAVAILABLE);
    assertThat(outcome.info()).isEqualTo("failed to submit request: request already processed");
  }

  @Test
  void anotherPendingPayloadIsABadRequest() {
    SubmitOutcome outcome = refused(new Refusal.Conflict(ID));
    assertThat(outcome.status()).isEqualTo(Status.BAD_REQUEST);
    assertThat(outcome.info()).isEqualTo("tx id tx-1 is pending with a different envelope");
  }

  @Test
  void tooLargeAndUnavailableAreNotServingWithTheirSentence() {
    SubmitOutcome tooLarge = refused(new Refusal.TooLarge(200, 100));
    assertThat(tooLarge.status()).isEqualTo(Status.SERVICE_UNAVAILABLE);
    assertThat(tooLarge.info())
        .isEqualTo("failed to submit request: request too large: 200 bytes but at most 100");

    SubmitOutcome stopped =
        outcome(new Admission.Unavailable("not serving: the replica of channel 'c' stopped"));
    assertThat(stopped.status()).isEqualTo(Status.SERVICE_UNAVAILABLE);
    assertThat(stopped.info())
        .isEqualTo("failed to submit request: not serving: the replica of channel 'c' stopped");
  }
}
