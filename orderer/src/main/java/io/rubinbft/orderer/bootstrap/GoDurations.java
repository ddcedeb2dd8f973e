package io.rubinbft.orderer.bootstrap;

import java.math.BigDecimal;
import java.time.Duration;

/**
 * Durations written as Go's {@code time.Duration.String()} writes them ("200ms", "5s", "3m0s",
 * "1h0m0s"): the form of BatchTimeout and the SmartBFT options in a channel config.
 */
final class GoDurations {

  private static final long MICRO = 1_000L;
  private static final long MILLI = 1_000_000L;
  private static final long SECOND = 1_000_000_000L;
  private static final long MINUTE = 60 * SECOND;
  private static final long HOUR = 60 * MINUTE;

  private GoDurations() {}

  static String format(Duration duration) {
    if (duration.isNegative()) {
      return "-" + format(duration.negated());
    }
    long nanos = duration.toNanos();
    if (nanos == 0) {
      return "0s";
    }
    if (nanos < MICRO) {
      return nanos + "ns";
    }
    if (nanos < MILLI) {
      return decimal(nanos, MICRO) + "µs";
    }
    if (nanos < SECOND) {
      return decimal(nanos, MILLI) + "ms";
    }
    StringBuilder text = new StringBuilder();
    long hours = nanos / HOUR;
    long minutes = nanos % HOUR / MINUTE;
    if (hours > 0) {
      text.append(hours).append('h');
    }
    if (hours > 0 || minutes > 0) {
      text.append(minutes).append('m');
    }
    return text.append(decimal(nanos % MINUTE, SECOND)).append('s').toString();
  }

  private static String decimal(long nanos, long unit) {
    return BigDecimal.valueOf(nanos)
        .divide(BigDecimal.valueOf(unit))
        .stripTrailingZeros()
        .toPlainString();
  }
}
