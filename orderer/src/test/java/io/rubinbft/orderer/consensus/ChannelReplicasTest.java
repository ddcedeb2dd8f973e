package io.rubinbft.orderer.consensus;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.orderer.channel.PbftSettings;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ChannelReplicasTest {

  private static final long MB = 1L << 20;

  @Test
  void poolHoldsAQuarterOfTheHeapInTypicalEnvelopes() {
    PbftSettings fabricBench = settings(100, 100_000);

    assertThat(ChannelReplicas.poolLimit(fabricBench, 128 * MB)).isEqualTo(8_192);
    assertThat(ChannelReplicas.poolLimit(fabricBench, 6 * 1024 * MB)).isEqualTo(100_000);
    assertThat(ChannelReplicas.poolLimit(settings(500, 100_000), MB)).isEqualTo(500);
  }

  @Test
  void poolLimitStaysWithinTheConfigAndTheHeapAndHoldsABlock() {
    long seed = System.nanoTime();
    System.out.println("seed " + seed);
    Random random = new Random(seed);
    for (int i = 0; i < 1_000; i++) {
      int batch = 1 + random.nextInt(10_000);
      int pool = 1 + random.nextInt(1_000_000);
      long heap = MB + (long) (random.nextDouble() * 16 * 1024 * MB);

      int limit = ChannelReplicas.poolLimit(settings(batch, pool), heap);

      assertThat(limit).as("seed %d", seed).isGreaterThanOrEqualTo(batch);
      if (limit > batch) {
        assertThat(limit).as("seed %d", seed).isLessThanOrEqualTo(pool);
        assertThat((long) limit * ChannelReplicas.TYPICAL_ENVELOPE_BYTES)
            .as("seed %d", seed)
            .isLessThanOrEqualTo(heap / ChannelReplicas.POOL_HEAP_FRACTION);
      }
    }
  }

  private static PbftSettings settings(int batchMaxCount, int requestPoolSize) {
    Duration second = Duration.ofSeconds(1);
    return new PbftSettings(
        batchMaxCount,
        10 * MB,
        Duration.ofMillis(200),
        10 * MB,
        requestPoolSize,
        second,
        second,
        second,
        second,
        second);
  }
}
