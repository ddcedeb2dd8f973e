package io.rubinbft.orderer.config;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations in Go's text form, as {@code time.ParseDuration} reads and {@code
 * time.Duration.String()} writes them ("200ms", "1m0s", "1h2m3.5s"): the form of Fabric's
 * BatchTimeout and SmartBFT options and of the node's own orderer.yaml. Negative durations are
 * refused: no setting may be negative.
 */
public final class GoDuration {

  private static final long MICRO = 1_000L;
  private static final long MILLI = 1_000_000L;
  private static final long MINUTE = 60_000_000_000L;
  private static final long HOUR = 60 * MINUTE;

  private static final Pattern TERM = Pattern.compile("(\\d*)(?:\\.(\\d*))?(ns|us|µs|μs|ms|s|m|h)");
  private static final long NANOS_PER_SECOND = 1_000_000_000L;
  private static final Map<String, Long> UNIT_NANOS =
      Map.of(
          "ns", 1L,
          "us", 1_000L,
          "µs", 1_000L,
          "μs", 1_000L,
          "ms", 1_000_000L,
          "s", NANOS_PER_SECOND,
          "m", 60 * NANOS_PER_SECOND,
          "h", 3600 * NANOS_PER_SECOND);

  private GoDuration() {}

  /**
   * The duration {@code text} denotes.
   *
   * @throws IllegalArgumentException naming the text when it is not a Go duration
   */
  public static Duration parse(String text) {
    String body = text.startsWith("+") ? text.substring(1) : text;
    if (body.equals("0")) {
      return Duration.ZERO;
    }
    if (body.isEmpty() || body.startsWith("-")) {
      throw new IllegalArgumentException("'" + text + "' is not a non-negative Go duration");
    }
    Matcher term = TERM.matcher(body);
    long nanos = 0;
    int at = 0;
    while (at < body.length()) {
      if (!term.find(at)
          || term.start() != at
          || (term.group(1).isEmpty() && isBlank(term.group(2)))) {
        throw new IllegalArgumentException("'" + text + "' is not a Go duration (e.g. \"200ms\")");
      }
      nanos = Math.addExact(nanos, termNanos(term, text));
      at = term.end();
    }
    return Duration.ofNanos(nanos);
  }

  /** {@code duration} as Go's {@code time.Duration.String()} writes it ("200ms", "3m0s"). */
  public static String format(Duration duration) {
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
    if (nanos < NANOS_PER_SECOND) {
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
    return text.append(decimal(nanos % MINUTE, NANOS_PER_SECOND)).append('s').toString();
  }

  private static String decimal(long nanos, long unit) {
    return BigDecimal.valueOf(nanos)
        .divide(BigDecimal.valueOf(unit))
        .stripTrailingZeros()
        .toPlainString();
  }

  private static long termNanos(Matcher term, String text) {
    // The term's pattern admits only the units in UNIT_NANOS.
    long unit = Objects.requireNonNull(UNIT_NANOS.get(term.group(3)));
    try {
      long whole = term.group(1).isEmpty() ? 0 : Long.parseLong(term.group(1));
      long nanos = Math.multiplyExact(whole, unit);
      String fraction = term.group(2);
      if (!isBlank(fraction)) {
        // Like Go, digits beyond nanosecond precision are dropped, not rounded.
        BigDecimal part = new BigDecimal("0." + fraction).multiply(BigDecimal.valueOf(unit));
        nanos = Math.addExact(nanos, part.longValue());
      }
      return nanos;
    } catch (NumberFormatException | ArithmeticException e) {
      throw new IllegalArgumentException("'" + text + "' overflows a Go duration", e);
    }
  }

  private static boolean isBlank(String fraction) {
    return fraction == null || fraction.isEmpty();
  }
}
