package io.rubinbft.orderer.bootstrap;

import java.time.Duration;
import org.hyperledger.fabric.protos.orderer.smartbft.Options;

/** SmartBFT options for the {@code ConsensusType} metadata of a BFT channel. */
public final class SmartBftOptions {

  private SmartBftOptions() {}

  /**
   * The options of the fixtures' BenchChannel, which Fabric v3.1.5 ran with. Fields configtx.yaml
   * leaves out stay 0 (absent); {@code leader_rotation} stays ROTATION_UNSPECIFIED as configtxgen
   * encodes it.
   */
  public static Options benchChannel() {
    return Options.newBuilder()
        .setRequestBatchMaxInterval(GoDurations.format(Duration.ofMillis(200)))
        .setIncomingMessageBufferSize(200)
        .setRequestPoolSize(100_000)
        .setRequestForwardTimeout(GoDurations.format(Duration.ofSeconds(5)))
        .setRequestComplainTimeout(GoDurations.format(Duration.ofSeconds(20)))
        .setRequestAutoRemoveTimeout(GoDurations.format(Duration.ofMinutes(3)))
        .setViewChangeResendInterval(GoDurations.format(Duration.ofSeconds(5)))
        .setViewChangeTimeout(GoDurations.format(Duration.ofSeconds(20)))
        .setLeaderHeartbeatTimeout(GoDurations.format(Duration.ofMinutes(1)))
        .setLeaderHeartbeatCount(10)
        .setCollectTimeout(GoDurations.format(Duration.ofSeconds(1)))
        .build();
  }
}
