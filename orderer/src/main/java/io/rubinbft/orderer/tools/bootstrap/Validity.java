package io.rubinbft.orderer.tools.bootstrap;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** A certificate's validity window. */
record Validity(Instant notBefore, Instant notAfter) {

  /** cryptogen's lifetime for every certificate it makes: ten years of 365 days. */
  static final Duration CRYPTOGEN_LIFETIME = Duration.ofDays(3650);

  Validity {
    if (!notAfter.isAfter(notBefore)) {
      throw new IllegalArgumentException(
          "validity ends at " + notAfter + ", not after its start " + notBefore);
    }
  }

  /**
   * cryptogen's window: starts at {@code now} rounded to the minute, minus 5 minutes (tolerating
   * clocks slightly behind), and lasts ten years.
   */
  static Validity cryptogenStyle(Instant now) {
    Instant rounded = now.plusSeconds(30).truncatedTo(ChronoUnit.MINUTES);
    Instant start = rounded.minus(Duration.ofMinutes(5));
    return new Validity(start, start.plus(CRYPTOGEN_LIFETIME));
  }
}
