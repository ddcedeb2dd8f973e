package io.rubinbft.orderer.consensus;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.channel.ConfigBlockReader;
import io.rubinbft.orderer.channel.Fixtures;
import io.rubinbft.orderer.channel.PbftSettings;
import io.rubinbft.orderer.memory.MemoryBudgets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ChannelReplicasTest {

  private static final long MB = 1L << 20;

  @Test
  void thePoolsCountBoundIsTheChannelsRequestPoolSizeAndHoldsABlock() {
    assertThat(poolLimit(settings(100, 100_000))).isEqualTo(100_000);
    assertThat(poolLimit(settings(500, 100))).isEqualTo(500);
  }

  @Test
  void thePrimarysCutSpacingIsHalfTheBatchIntervalInTicks() {
    ReplicaConfig config =
        ChannelReplicas.replicaConfig(
            channel(settings(500, 100_000)), 0, Duration.ofMillis(10), MemoryBudgets.standard());

    assertThat(config.batchTimeoutTicks()).isEqualTo(20);
    assertThat(config.cutSpacingTicks()).isEqualTo(10);
  }

  private static int poolLimit(PbftSettings pbft) {
    return ChannelReplicas.replicaConfig(
            channel(pbft), 0, Duration.ofMillis(10), MemoryBudgets.standard())
        .poolLimit();
  }

  /** The fixture channel's config with {@code pbft} in place of its own settings. */
  private static ChannelConfig channel(PbftSettings pbft) {
    ChannelConfig genesis;
    try {
      genesis = ConfigBlockReader.read(Fixtures.parseBlock("bft-genesis.block"));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return new ChannelConfig(
        genesis.channelId(),
        genesis.blockNumber(),
        genesis.sequence(),
        genesis.config(),
        genesis.capabilities(),
        genesis.consensusState(),
        genesis.consenters(),
        genesis.smartBftOptions(),
        pbft,
        genesis.batchLimits(),
        genesis.batchTimeout(),
        genesis.ordererEndpoints(),
        genesis.blockValidationPolicy());
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
