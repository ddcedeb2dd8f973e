package io.rubinbft.orderer.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.hyperledger.fabric.protos.orderer.smartbft.Options;
import org.junit.jupiter.api.Test;

class PbftSettingsTest {

  private static final BatchLimits BATCH = new BatchLimits(500, 4_000_000, 2_000_000);

  @Test
  void batchSizeOverridesTheBatchOptionsAsInFabric() {
    PbftSettings settings =
        PbftSettings.from(
            options().setRequestBatchMaxCount(7).setRequestBatchMaxBytes(9).build(), BATCH);
    assertThat(settings.batchMaxCount()).isEqualTo(500);
    assertThat(settings.batchMaxBytes()).isEqualTo(4_000_000);
    assertThat(settings.requestMaxBytes()).isEqualTo(4_000_000);
  }

  @Test
  void explicitRequestMaxBytesAndRotationOff() {
    PbftSettings settings =
        PbftSettings.from(
            options()
                .setRequestMaxBytes(100_000)
                .setLeaderRotation(Options.Rotation.ROTATION_OFF)
                .build(),
            BATCH);
    assertThat(settings.requestMaxBytes()).isEqualTo(100_000);
    assertThat(settings.batchMaxInterval()).isEqualTo(Duration.ofMillis(50));
  }

  @Test
  void theCutSpacingIsHalfTheBatchInterval() {
    PbftSettings settings =
        PbftSettings.from(options().setRequestBatchMaxInterval("300ms").build(), BATCH);
    assertThat(settings.cutSpacing()).isEqualTo(Duration.ofMillis(150));
  }

  @Test
  void equalTimeoutsAreAllowedZeroIsNot() {
    assertThat(
            PbftSettings.from(
                    options()
                        .setRequestForwardTimeout("20s")
                        .setRequestAutoRemoveTimeout("20s")
                        .build(),
                    BATCH)
                .requestTimeout())
        .isEqualTo(Duration.ofSeconds(20));
    assertThatThrownBy(() -> PbftSettings.from(options().setViewChangeTimeout("0s").build(), BATCH))
        .hasMessage("SmartBFT option view_change_timeout must be greater than 0");
  }

  private static Options.Builder options() {
    return Options.newBuilder()
        .setRequestBatchMaxInterval("50ms")
        .setRequestPoolSize(1000)
        .setRequestForwardTimeout("2s")
        .setRequestComplainTimeout("20s")
        .setRequestAutoRemoveTimeout("3m")
        .setViewChangeResendInterval("5s")
        .setViewChangeTimeout("20s");
  }
}
