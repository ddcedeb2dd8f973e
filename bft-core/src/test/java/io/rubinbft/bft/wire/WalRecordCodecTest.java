package io.rubinbft.bft.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rubinbft.bft.Digest;
import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.message.Checkpoint;
import io.rubinbft.bft.message.Commit;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Records that passed the log's CRC but still do not decode are reported with their reason. */
class WalRecordCodecTest {

  private final WalRecordCodec codec = new WalRecordCodec(TestLimits.LIMITS);

  @Test
  void anotherFormatVersionIsRejected() {
    byte[] bytes = codec.encode(signed());
    bytes[0] = 7;

    assertThat(codec.decode(bytes))
        .isEqualTo(new Decoded.Invalid<>("WAL record format version 7 but this replica reads 3"));
  }

  @Test
  void anUnknownTypeIsRejected() {
    byte[] bytes = codec.encode(signed());
    bytes[1] = 0;

    assertThat(codec.decode(bytes)).isEqualTo(new Decoded.Invalid<>("unknown WAL record type 0"));
  }

  @Test
  void aProofLongerThanTheClusterIsRejected() {
    Checkpoint checkpoint = new Checkpoint(4, new Digest(new byte[32]), 0, new byte[8]);
    WalRecord record =
        new WalRecord.StableCheckpoint(4, new Digest(new byte[32]), List.of(checkpoint));
    byte[] bytes = codec.encode(record);
    bytes[2 + 8 + 4 + 32 + 3] = 5;

    assertThat(codec.decode(bytes))
        .isEqualTo(new Decoded.Invalid<>("StableCheckpoint.proof: count 5 exceeds the limit 4"));
  }

  @Test
  void encodingARecordRecoveryCouldNotReadFailsLoudly() {
    WalRecordCodec tight = new WalRecordCodec(TestLimits.LIMITS.withMaxMessageBytes(10));

    assertThatThrownBy(() -> tight.encode(signed()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("record of 70 bytes exceeds the limit 10: recovery could not read it");
  }

  private static WalRecord signed() {
    return new WalRecord.Signed(new Commit(1, 2, new Digest(new byte[32]), 0, new byte[8]));
  }
}
