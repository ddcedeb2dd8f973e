package io.rubinbft.orderer.node;

/**
 * How many forwarded envelopes and bytes each consenter may send this node per second: a correct
 * one forwards only what it held past the forward timeout, at most a request pool's worth, so this
 * bounds what a Byzantine one makes this node check. Called on network threads.
 */
final class ForwardBudget {

  /** Envelopes per sender and second: a full pool of Fabric's default size (100,000) in 50 s. */
  static final int ENVELOPES = 2_000;

  /** Bytes per sender and second. */
  static final long BYTES = 32L << 20;

  /** Senders tracked: a channel's consenters are indexed below this. */
  private static final int SENDERS = 1024;

  private static final long INTERVAL_NANOS = 1_000_000_000L;

  private final int[] envelopes = new int[SENDERS];
  private final long[] bytes = new long[SENDERS];
  private final long[] intervalStart = new long[SENDERS];

  /** Whether {@code sender} may send one more envelope of {@code size} bytes at {@code now}. */
  synchronized boolean spend(int sender, int size, long now) {
    if (sender >= SENDERS) {
      return false;
    }
    if (now - intervalStart[sender] >= INTERVAL_NANOS) {
      intervalStart[sender] = now;
      envelopes[sender] = 0;
      bytes[sender] = 0;
    }
    if (envelopes[sender] >= ENVELOPES || bytes[sender] + size > BYTES) {
      return false;
    }
    envelopes[sender]++;
    bytes[sender] += size;
    return true;
  }
}
