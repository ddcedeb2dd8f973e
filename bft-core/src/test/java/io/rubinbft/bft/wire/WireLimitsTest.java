package io.rubinbft.bft.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.message.Decisions;
import io.rubinbft.bft.message.NewView;
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

  /** Keeps LargestMessage honest: a new view with everything at its limit is exactly the bound. */
  @Test
  void maxMessageBytesIsTheSizeOfAFullNewView() {
    NewView largest = new MaximalValues(limits).newView();

    assertThat(messages.encodedSize(largest)).isEqualTo(limits.maxMessageBytes());
    assertThat(messages.decode(messages.encode(largest))).isInstanceOf(Decoded.Valid.class);
  }

  @Test
  void aFullStateTransferAnswerFits() {
    Decisions largest = new MaximalValues(limits).decisions();

    assertThat(messages.encodedSize(largest)).isLessThanOrEqualTo(limits.maxMessageBytes());
    assertThat(messages.decode(messages.encode(largest))).isInstanceOf(Decoded.Valid.class);
  }

  @Test
  void aFullRecordFits() {
    WalRecordCodec records = new WalRecordCodec(limits);
    WalRecord largest = new WalRecord.ViewInstalled(new MaximalValues(limits).newView());

    assertThat(records.encodedSize(largest)).isEqualTo(limits.maxMessageBytes());
    assertThat(records.decode(records.encode(largest))).isInstanceOf(Decoded.Valid.class);
  }

  @Test
  void rejectsAConfigurationWhoseLargestMessageCannotBeAnArray() {
    ReplicaConfig huge =
        new ReplicaConfig(
            64, 0, 10_000, 1L << 30, 2, 1024, 16, 10_000, 1 << 20, 200, 100, 20, 1024, 100_000);

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
