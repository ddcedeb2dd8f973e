package io.rubinbft.orderer.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Expected strings are what Go's {@code time.Duration.String()} prints for the same durations. */
class GoDurationFormatTest {

  @ParameterizedTest
  @CsvSource({
    "0, 0s",
    "1, 1ns",
    "1500, 1.5µs",
    "200000000, 200ms",
    "1500000, 1.5ms",
    "1000000000, 1s",
    "2000000000, 2s",
    "1500000000, 1.5s",
    "60000000000, 1m0s",
    "180000000000, 3m0s",
    "90000000000, 1m30s",
    "3600000000000, 1h0m0s",
    "3723000000001, 1h2m3.000000001s",
    "-5000000000, -5s"
  })
  void formatsAsGoDoes(long nanos, String expected) {
    assertThat(GoDuration.format(Duration.ofNanos(nanos))).isEqualTo(expected);
  }
}
