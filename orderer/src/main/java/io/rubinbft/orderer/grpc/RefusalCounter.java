package io.rubinbft.orderer.grpc;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * What the listener refused, counted by reason for a metric (the reason's label is its name in
 * lower case) and logged at most one line per {@value #LOG_INTERVAL_MILLIS} ms, so that a stranger
 * whose attempts are refused by the thousand cannot flood the log. Thread-safe.
 *
 * @param <R> why something was refused
 */
final class RefusalCounter<R extends Enum<R>> {

  static final long LOG_INTERVAL_MILLIS = 10_000;

  private final Class<R> reasons;
  private final LongSupplier millis;
  private final Map<R, Long> counts;
  private long lastLogMillis = Long.MIN_VALUE;

  /**
   * @param reasons the reasons' enum
   * @param millis a monotonic or wall clock in milliseconds, for the log's interval
   */
  RefusalCounter(Class<R> reasons, LongSupplier millis) {
    this.reasons = reasons;
    this.millis = millis;
    this.counts = new EnumMap<>(reasons);
  }

  /**
   * Counts one refusal for {@code reason} and, unless a line went out less than the interval ago,
   * hands {@code logLine} the count so far for that reason to log it.
   */
  synchronized void count(R reason, LongConsumer logLine) {
    long count = counts.merge(reason, 1L, Long::sum);
    long now = millis.getAsLong();
    if (lastLogMillis == Long.MIN_VALUE || now - lastLogMillis >= LOG_INTERVAL_MILLIS) {
      lastLogMillis = now;
      logLine.accept(count);
    }
  }

  /** Refusals so far by the metric's reason label, every reason present. */
  synchronized Map<String, Long> byLabel() {
    Map<String, Long> labelled = new TreeMap<>();
    for (R reason : reasons.getEnumConstants()) {
      labelled.put(label(reason), counts.getOrDefault(reason, 0L));
    }
    return labelled;
  }

  /** {@code reason}'s label in the metric. */
  static String label(Enum<?> reason) {
    return reason.name().toLowerCase(Locale.ROOT);
  }
}
