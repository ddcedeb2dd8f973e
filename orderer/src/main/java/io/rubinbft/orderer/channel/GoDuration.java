package io.rubinbft.orderer.channel;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses durations written as Go's {@code time.Duration.String()} / {@code time.ParseDuration} read
 * them ("200ms", "1m0s", "1h2m3.5s"), the form Fabric's config uses for BatchTimeout and the
 * SmartBFT options. Negative durations are refused: no config value here may be negative.
 */
final class GoDuration {

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
  static Duration parse(String text) {
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
          || term.group(1).isEmpty() && isBlank(term.group(2))) {
        throw new IllegalArgumentException("'" + text + "' is not a Go duration (e.g. \"200ms\")");
      }
      nanos = Math.addExact(nanos, termNanos(term, text));
      at = term.end();
    }
    return Duration.ofNanos(nanos);
  }

  private static long termNanos(Matcher term, String text) {
    long unit = UNIT_NANOS.get(term.group(3));
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
