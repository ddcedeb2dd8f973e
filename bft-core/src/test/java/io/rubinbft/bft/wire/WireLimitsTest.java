package io.rubinbft.bft.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rubinbft.bft.Decision;
import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.message.Decisions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WireLimitsTest {

  private final WireLimits limits = TestLimits.LIMITS;
  private final MessageCodec messages = new MessageCodec(limits);

  @Test
  void takesTheReplicaConfigsLimits() {
    ReplicaConfig config = TestLimits.CONFIG;

    assertThat(limits.replicas()).isEqualTo(config.replicas());
    assertThat(limits.maxRequestsPerProposal()).isEqualTo(config.batchMaxCount());
    assertThat(limits.maxRequestBytes()).isEqualTo(config.requestMaxBytes());
    assertThat(limits.maxBatchBytes()).isEqualTo(config.batchMaxBytes());
    assertThat(limits.maxSequencesPerMessage()).isEqualTo(config.window());
    assertThat(limits.maxPayloadBytes()).isEqualTo(64);
    assertThat(limits.maxSignatureBytes()).isEqualTo(80);
  }

  /**
   * Keeps LargestMessage honest: with proposals by digest the largest message is the one record
   * holding a body and a quorum of votes (a prepared certificate), or a full state-transfer answer
   * (here, of small decisions, {@link Decisions#MAX_COUNT} of them), never a new view.
   */
  @Test
  void maxMessageBytesIsTheSizeOfTheLargestOfThem() {
    MaximalValues maximal = new MaximalValues(limits);
    WalRecordCodec records = new WalRecordCodec(limits);
    int newView = messages.encodedSize(maximal.newView());
    int certificate = records.encodedSize(new WalRecord.Prepared(maximal.preparedCertificate()));
    Decisions fullAnswer = maximal.decisions();
    int answer = messages.encodedSize(fullAnswer);

    assertThat(fullAnswer.decisions()).hasSize(Decisions.MAX_COUNT);
    assertThat(Math.max(Math.max(newView, certificate), answer))
        .isEqualTo(limits.maxMessageBytes());
    assertThat(newView).isLessThan(Math.max(certificate, answer));
    assertThat(messages.decode(messages.encode(maximal.newView())))
        .isInstanceOf(Decoded.Valid.class);
  }

  /** Issue 18: a new view does not grow with the proposals it names, only with n and the window. */
  @Test
  void aFullNewViewDoesNotGrowWithTheProposalSize() {
    WireLimits small = new WireLimits(4, 10, 1 << 10, 10 << 10, 64, 80, 16, Integer.MAX_VALUE);
    WireLimits large = new WireLimits(4, 10, 1 << 20, 10 << 20, 64, 80, 16, Integer.MAX_VALUE);

    int smallNewView = new MessageCodec(small).encodedSize(new MaximalValues(small).newView());
    int largeNewView = new MessageCodec(large).encodedSize(new MaximalValues(large).newView());

    assertThat(largeNewView).isEqualTo(smallNewView).isLessThan(1 << 20);
    assertThat(large.largestMessageBytes())
        .isLessThan((10 << 20) + Decisions.MAX_ANSWER_BYTES + (1 << 20));
  }

  @Test
  void aFullStateTransferAnswerFits() {
    Decisions largest = new MaximalValues(limits).decisions();

    assertThat(messages.encodedSize(largest)).isLessThanOrEqualTo(limits.maxMessageBytes());
    assertThat(messages.decode(messages.encode(largest))).isInstanceOf(Decoded.Valid.class);
  }

  /**
   * Proposals of many small requests, cut at the answer's byte budget as bft-core and the orderer's
   * archive cut them: the answer still decodes, although the budget, not the window or the count,
   * bounds it, and its encoded size is what the budget counted.
   */
  @Test
  void aStateTransferAnswerCutAtItsByteBudgetFits() {
    WireLimits small = new WireLimits(4, 200, 512, 100 << 10, 64 << 10, 80, 64, Integer.MAX_VALUE);
    WireLimits limits = small.withMaxMessageBytes((int) small.largestMessageBytes());
    MessageCodec codec = new MessageCodec(limits);
    Decisions answer = new MaximalValues(limits).decisions();
    long counted = answer.decisions().stream().mapToLong(Decisions::bytes).sum();

    assertThat(answer.decisions().size()).isLessThan(limits.maxSequencesPerMessage());
    assertThat(counted).isLessThanOrEqualTo(Decisions.MAX_ANSWER_BYTES);
    assertThat(codec.encodedSize(answer))
        .isGreaterThan((int) Decisions.MAX_ANSWER_BYTES / 2)
        .isEqualTo(1 + 1 + Integer.BYTES + counted + Integer.BYTES)
        .isLessThanOrEqualTo(limits.maxMessageBytes());
    assertThat(codec.decode(codec.encode(answer))).isInstanceOf(Decoded.Valid.class);
  }

  /** The decoder takes up to {@link Decisions#MAX_COUNT} decisions whatever the window, no more. */
  @Test
  void anAnswerHoldsAtMostMaxCountDecisions() {
    MaximalValues maximal = new MaximalValues(limits);
    List<Decision> many = new ArrayList<>(maximal.decisions().decisions());
    assertThat(many).hasSize(Decisions.MAX_COUNT);
    assertThat(messages.decode(messages.encode(new Decisions(many, 0))))
        .isInstanceOf(Decoded.Valid.class);

    many.add(many.getFirst());
    WireLimits roomy = limits.withMaxMessageBytes(Integer.MAX_VALUE - 8);
    MessageCodec codec = new MessageCodec(roomy);
    assertThat(codec.decode(codec.encode(new Decisions(many, 0))))
        .isInstanceOfSatisfying(
            Decoded.Invalid.class,
            invalid -> assertThat(invalid.reason()).contains("Decisions.decisions"));
  }

  @Test
  void aFullRecordFits() {
    WalRecordCodec records = new WalRecordCodec(limits);
    WalRecord largest = new WalRecord.ViewInstalled(new MaximalValues(limits).newView());

    assertThat(records.encodedSize(largest)).isLessThanOrEqualTo(limits.maxMessageBytes());
    assertThat(records.decode(records.encode(largest))).isInstanceOf(Decoded.Valid.class);
  }

  @Test
  void rejectsAConfigurationWhoseLargestMessageCannotBeAnArray() {
    ReplicaConfig huge =
        new ReplicaConfig(
            64,
            0,
            10_000,
            1L << 30,
            2,
            1024,
            16,
            10_000,
            1 << 20,
            200,
            100,
            20,
            1024,
            100_000,
            Decisions.MAX_ANSWER_BYTES);

    assertThatThrownBy(() -> WireLimits.of(huge, 1024, 512))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("more than a byte array holds");
  }

  @Test
  void rejectsNegativeLimits() {
    assertThatThrownBy(() -> new WireLimits(4, 1, 1, 1, 1, -1, 1, 100))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxSignatureBytes is -1 but must be at least 0");
  }
}
