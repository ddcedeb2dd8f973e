package io.rubinbft.orderer.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;

class GoDurationTest {

  @Test
  void readsTheFormsFabricConfigsUse() {
    assertThat(GoDuration.parse("200ms")).isEqualTo(Duration.ofMillis(200));
    assertThat(GoDuration.parse("3m0s")).isEqualTo(Duration.ofMinutes(3));
    assertThat(GoDuration.parse("1m0s")).isEqualTo(Duration.ofMinutes(1));
    assertThat(GoDuration.parse("2s")).isEqualTo(Duration.ofSeconds(2));
    assertThat(GoDuration.parse("1h2m3.5s")).isEqualTo(Duration.parse("PT1H2M3.5S"));
    assertThat(GoDuration.parse("1.5h")).isEqualTo(Duration.ofMinutes(90));
    assertThat(GoDuration.parse(".5s")).isEqualTo(Duration.ofMillis(500));
    assertThat(GoDuration.parse("10us")).isEqualTo(Duration.ofNanos(10_000));
    assertThat(GoDuration.parse("10µs")).isEqualTo(Duration.ofNanos(10_000));
    assertThat(GoDuration.parse("7ns")).isEqualTo(Duration.ofNanos(7));
    assertThat(GoDuration.parse("0")).isEqualTo(Duration.ZERO);
    assertThat(GoDuration.parse("+5s")).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void refusesWhatGoRefusesAndNegatives() {
    for (String bad : new String[] {"", "5", "s", "5 s", "5sec", "1h-2m", "-1s", ".s", "5s5"}) {
      assertThatThrownBy(() -> GoDuration.parse(bad))
          .as("'%s'", bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("'" + bad + "'");
    }
    assertThatThrownBy(() -> GoDuration.parse("9999999999h"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("overflows");
  }

  /** Property: what Go's Duration.String() writes ("1h2m3.004005006s") reads back exactly. */
  @Test
  void readsBackGoFormattedDurations() {
    long seed = new Random().nextLong();
    System.out.println("GoDurationTest seed " + seed);
    Random random = new Random(seed);
    for (int i = 0; i < 2_000; i++) {
      long nanos = random.nextLong(1, 1_000L * 3600 * 1_000_000_000L);
      Duration duration = Duration.ofNanos(nanos >> random.nextInt(40));
      assertThat(GoDuration.parse(goString(duration))).as("seed %d", seed).isEqualTo(duration);
    }
  }

  /** Go's time.Duration.String() for positive durations. */
  private static String goString(Duration d) {
    long nanos = d.toNanos();
    if (nanos < 1_000) {
      return nanos + "ns";
    }
    if (nanos < 1_000_000) {
      return fraction(nanos, 1_000) + "µs";
    }
    if (nanos < 1_000_000_000) {
      return fraction(nanos, 1_000_000) + "ms";
    }
    long hours = d.toHours();
    long minutes = d.toMinutesPart();
    String seconds = fraction(nanos % 60_000_000_000L, 1_000_000_000) + "s";
    return (hours > 0 ? hours + "h" + minutes + "m" : minutes > 0 ? minutes + "m" : "") + seconds;
  }

  private static String fraction(long value, long unit) {
    String digits = String.format("%0" + Long.toString(unit).length() + "d", value % unit);
    String trimmed = digits.substring(1).replaceAll("0+$", "");
    return (value / unit) + (trimmed.isEmpty() ? "" : "." + trimmed);
  }
}
