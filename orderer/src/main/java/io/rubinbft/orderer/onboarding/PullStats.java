package io.rubinbft.orderer.onboarding;

import io.rubinbft.orderer.config.HostPort;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What one {@link BlockPuller} has done so far, for the metrics: read at scrape time from any
 * thread while the puller's thread updates it. Counters start at zero with the puller (a follower,
 * an onboarding or a catch-up).
 */
public final class PullStats {

  private static final Refusal.Check[] CHECKS = Refusal.Check.values();

  private final AtomicLong blocks = new AtomicLong();
  private final AtomicLongArray refused = new AtomicLongArray(CHECKS.length);
  private volatile Optional<HostPort> source = Optional.empty();
  private volatile int distrusted;

  /** The orderer blocks are being pulled from right now, if any. */
  public Optional<HostPort> source() {
    return source;
  }

  /** Blocks pulled, checked and kept. */
  public long blocksPulled() {
    return blocks.get();
  }

  /** Pulled blocks discarded, by the check they failed. */
  public Map<Refusal.Check, Long> refusals() {
    Map<Refusal.Check, Long> counts = new EnumMap<>(Refusal.Check.class);
    for (Refusal.Check check : CHECKS) {
      counts.put(check, refused.get(check.ordinal()));
    }
    return counts;
  }

  /**
   * Sources whose claimed height was not served (or who sent a bad block) and not yet made good.
   */
  public int distrustedSources() {
    return distrusted;
  }

  void pullingFrom(Optional<HostPort> endpoint) {
    source = endpoint;
  }

  void kept() {
    blocks.incrementAndGet();
  }

  void refused(Refusal.Check check) {
    refused.incrementAndGet(check.ordinal());
  }

  void distrusted(int sources) {
    distrusted = sources;
  }
}
