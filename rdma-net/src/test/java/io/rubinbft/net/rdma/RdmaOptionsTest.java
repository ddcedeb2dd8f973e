package io.rubinbft.net.rdma;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class RdmaOptionsTest {

  @Test
  void defaultsRetryReceiverNotReadyAFewTimesButNeverForever() {
    RdmaOptions defaults = RdmaOptions.defaults();
    assertThat(defaults.rnrRetryCount()).isEqualTo(3);
    assertThat(defaults.deviceName()).isEmpty();
    assertThat(defaults.port()).isEqualTo(1);
    assertThat(defaults.gidIndex()).isEmpty();
    assertThat(defaults.verbsLibrary()).isEqualTo("libibverbs.so.1");
    assertThat(defaults.connectionManagerLibrary()).isEqualTo("librdmacm.so.1");
  }

  @Test
  void refusesInfiniteReceiverNotReadyRetries() {
    // 7 means "retry forever" to the device: a credit bug would hang instead of failing
    assertThatThrownBy(() -> RdmaOptions.defaults().withRnrRetryCount(7))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("rnrRetryCount is 7 but must be in [0, 6]");
  }

  @Test
  void changesOneFieldAtATime() {
    RdmaOptions options =
        RdmaOptions.defaults()
            .withDeviceName("mlx5_0")
            .withPort(2)
            .withGidIndex(3)
            .withRnrRetryCount(0);
    assertThat(options)
        .isEqualTo(
            new RdmaOptions(
                "mlx5_0",
                2,
                OptionalInt.of(3),
                0,
                7,
                2_000,
                1_024,
                "libibverbs.so.1",
                "librdmacm.so.1"));
  }

  @Test
  void refusesPortsAndGidIndexesOutsideTheirRanges() {
    assertThatThrownBy(() -> RdmaOptions.defaults().withPort(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("port is 0 but must be in [1, 255]");
    assertThatThrownBy(() -> RdmaOptions.defaults().withGidIndex(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("gidIndex is -1 but must be in [0, 65535]");
  }

  @Test
  void refusesEmptyLibraryNames() {
    assertThatThrownBy(() -> RdmaOptions.defaults().withLibraries("", "librdmacm.so.1"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
