package io.rubinbft.orderer.onboarding;

import java.time.Duration;

/**
 * The bounds of pulling blocks from other orderers.
 *
 * @param blockTimeout how long a source may take to send the next block of a range it has before it
 *     counts as slow and another one is asked
 * @param idleTimeout how long a follower waits for a new block on one stream before it asks another
 *     source (the channel may simply be idle, so the source is not distrusted)
 * @param minBackoff how long a source that failed once is left alone
 * @param maxBackoff the longest it is left alone: the backoff doubles per failure up to this
 */
public record PullLimits(
    Duration blockTimeout, Duration idleTimeout, Duration minBackoff, Duration maxBackoff) {

  public PullLimits {
    if (blockTimeout.isNegative()
        || blockTimeout.isZero()
        || idleTimeout.compareTo(blockTimeout) < 0
        || minBackoff.isNegative()
        || maxBackoff.compareTo(minBackoff) < 0) {
      throw new IllegalArgumentException(
          "pull limits must be positive, with idle >= block timeout and max >= min backoff: "
              + this);
    }
  }

  /**
   * 10 s per block, 15 s idle, backoff 100 ms to 5 s. The idle bound is short because the endpoints
   * a follower asks in turn may include removed consenters that follow too and are behind: on an
   * idle stream from one of them it would otherwise wait long for blocks it will not get soon.
   */
  public static PullLimits defaults() {
    return new PullLimits(
        Duration.ofSeconds(10),
        Duration.ofSeconds(15),
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
