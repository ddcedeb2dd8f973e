package io.rubinbft.net.rdma;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rubinbft.net.verbs.VerbsException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PrivateDataTest {

  @Test
  void roundTripsThroughPaddedConnectionParameters() throws VerbsException {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    try (Arena arena = Arena.ofConfined()) {
      for (int i = 0; i < 200; i++) {
        byte[] data = new byte[random.nextInt(PrivateData.MAX_BYTES + 1)];
        random.nextBytes(data);
        MemorySegment param = arena.allocate(VerbsLayouts.RDMA_CONN_PARAM);
        PrivateData.write(data, param, arena);
        byte[] sent = PrivateData.copyReceived(param);
        // the CM pads private data to its message's fixed size
        byte[] padded = Arrays.copyOf(sent, sent.length + random.nextInt(64));
        assertThat(PrivateData.decode(padded)).as("seed %d", seed).isEqualTo(data);
      }
    }
  }

  @Test
  void rejectsALengthByteBeyondTheMessage() {
    byte[] received = {10, 1, 2, 3};
    assertThatThrownBy(() -> PrivateData.decode(received))
        .isInstanceOf(VerbsException.class)
        .hasMessage("peer's private data claims 10 bytes but the message carries 3");
  }

  @Test
  void refusesToSendMoreThanAConnectRequestCarries() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment param = arena.allocate(VerbsLayouts.RDMA_CONN_PARAM);
      assertThatThrownBy(() -> PrivateData.write(new byte[56], param, arena))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("private data of 56 bytes exceeds the limit of 55");
    }
  }

  @Test
  void readsNothingFromAnEmptyParameter() throws VerbsException {
    try (Arena arena = Arena.ofConfined()) {
      byte[] received = PrivateData.copyReceived(arena.allocate(VerbsLayouts.RDMA_CONN_PARAM));
      assertThat(PrivateData.decode(received)).isEmpty();
    }
  }
}
