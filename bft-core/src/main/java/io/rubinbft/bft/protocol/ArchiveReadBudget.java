package io.rubinbft.bft.protocol;

import java.util.HashMap;
import java.util.Map;

/**
 * What each peer may still have read from this replica's archive: a token bucket of bytes per peer,
 * refilled at {@code bytesPerInterval} per status interval up to that much. A read costs the most
 * bytes it may answer with, so a peer that asks for old decisions without end costs at most about
 * {@code bytesPerInterval} of storage reads per interval (plus one decision per read when a single
 * decision is larger), while an honest peer far behind reads that much back to back.
 */
final class ArchiveReadBudget {

  private final long bytesPerInterval;
  private final int intervalTicks;
  private final Map<Integer, Bucket> buckets = new HashMap<>();

  ArchiveReadBudget(long bytesPerInterval, int intervalTicks) {
    if (bytesPerInterval < 1 || intervalTicks < 1) {
      throw new IllegalArgumentException(
          bytesPerInterval + " bytes per interval of " + intervalTicks + " ticks");
    }
    this.bytesPerInterval = bytesPerInterval;
    this.intervalTicks = intervalTicks;
  }

  /** Whether {@code peer} has {@code cost} bytes left at tick {@code now}. */
  boolean allows(int peer, long cost, long now) {
    return bucket(peer, now).bytes >= Math.min(cost, bytesPerInterval);
  }

  /** Takes {@code cost} bytes from {@code peer}'s bucket (checked with {@link #allows} first). */
  void charge(int peer, long cost, long now) {
    bucket(peer, now).bytes -= Math.min(cost, bytesPerInterval);
  }

  private Bucket bucket(int peer, long now) {
    Bucket bucket = buckets.computeIfAbsent(peer, p -> new Bucket(bytesPerInterval, now));
    long elapsed = Math.min(now - bucket.refilledAt, intervalTicks);
    if (elapsed > 0) {
      bucket.bytes =
          Math.min(bytesPerInterval, bucket.bytes + elapsed * bytesPerInterval / intervalTicks);
      bucket.refilledAt = now;
    }
    return bucket;
  }

  private static final class Bucket {
    long bytes;
    long refilledAt;

    Bucket(long bytes, long refilledAt) {
      this.bytes = bytes;
      this.refilledAt = refilledAt;
    }
  }
}
