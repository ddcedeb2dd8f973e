package io.rubinbft.bft.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.message.Message;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class MessageCodecTest {

  private static final long SEED = Long.getLong("wire.seed", 20261121L);

  private final MessageCodec codec = new MessageCodec(TestLimits.LIMITS);

  /** A transport sizes its slot with encodedSize and encodes in place: same bytes, nothing else. */
  @Test
  void encodingIntoACallersBufferWritesExactlyTheEncoding() {
    for (RandomWire.Kind<Message> kind : RandomWire.messageKinds()) {
      for (int i = 0; i < 1_000; i++) {
        long seed = SEED + i;
        Message message = kind.generate(seed, TestLimits.LIMITS);
        byte[] expected = codec.encode(message);
        byte[] slot = new byte[codec.encodedSize(message) + 9];
        Arrays.fill(slot, (byte) 0x77);

        int written = codec.encode(message, slot, 5);

        assertThat(written).as("%s from seed %d", kind, seed).isEqualTo(expected.length);
        assertThat(Arrays.copyOfRange(slot, 5, 5 + written)).isEqualTo(expected);
        assertThat(Arrays.copyOfRange(slot, 0, 5)).containsOnly(0x77);
        assertThat(Arrays.copyOfRange(slot, 5 + written, slot.length)).containsOnly(0x77);
      }
    }
  }
}
