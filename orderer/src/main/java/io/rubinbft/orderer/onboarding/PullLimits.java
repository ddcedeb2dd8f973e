package io.rubinbft.orderer.onboarding;

import java.time.Duration;

/**
 * The bounds of pulling blocks from other orderers.
 *
 * @param blockTimeout how long a source may take to send the next block of a height it claimed
 *     before it counts as lying and another one is asked
 * @param probeTimeout how long the sources together may take to tell their newest block (their
 *     height); a source silent that long is left alone for a backoff
 * @param minBackoff how long a source that failed once is left alone, and the first pause before
 *     sources are asked for their heights again when none is ahead
 * @param maxBackoff the longest it is left alone: the backoff doubles per failure up to this; also
 *     the longest a follower whose source has no new block waits before it asks every source again
 */
public record PullLimits(
    Duration blockTimeout, Duration probeTimeout, Duration minBackoff, Duration maxBackoff) {

  public PullLimits {
    if (blockTimeout.isNegative()
        || blockTimeout.isZero()
        || probeTimeout.isNegative()
        || probeTimeout.isZero()
        || minBackoff.isNegative()
        || minBackoff.isZero()
        || maxBackoff.compareTo(minBackoff) < 0) {
      throw new IllegalArgumentException(
          "pull limits must be positive, with max >= min backoff: " + this);
    }
  }

  /** 10 s per block, 3 s for a height probe, backoff 100 ms to 5 s. */
  public static PullLimits defaults() {
    return new PullLimits(
        Duration.ofSeconds(10),
        Duration.ofSeconds(3),
        Duration.ofMillis(100),
        Duration.ofSeconds(5));
  }

  /** The backoff after {@code failures} failures in a row (at least one). */
  Duration backoff(int failures) {
    int doublings = Math.min(failures - 1, 20);
    Duration backoff = minBackoff.multipliedBy(1L << doublings);
    return backoff.compareTo(maxBackoff) > 0 ? maxBackoff : backoff;
  }
}
