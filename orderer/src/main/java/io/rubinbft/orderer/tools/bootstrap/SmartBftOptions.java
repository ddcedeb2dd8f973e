package io.rubinbft.orderer.tools.bootstrap;

import io.rubinbft.orderer.config.GoDuration;
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
        .setRequestBatchMaxInterval(GoDuration.format(Duration.ofMillis(200)))
        .setIncomingMessageBufferSize(200)
        .setRequestPoolSize(100_000)
        .setRequestForwardTimeout(GoDuration.format(Duration.ofSeconds(5)))
        .setRequestComplainTimeout(GoDuration.format(Duration.ofSeconds(20)))
        .setRequestAutoRemoveTimeout(GoDuration.format(Duration.ofMinutes(3)))
        .setViewChangeResendInterval(GoDuration.format(Duration.ofSeconds(5)))
        .setViewChangeTimeout(GoDuration.format(Duration.ofSeconds(20)))
        .setLeaderHeartbeatTimeout(GoDuration.format(Duration.ofMinutes(1)))
        .setLeaderHeartbeatCount(10)
        .setCollectTimeout(GoDuration.format(Duration.ofSeconds(1)))
        .build();
  }
}
