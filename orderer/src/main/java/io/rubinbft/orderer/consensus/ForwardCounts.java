package io.rubinbft.orderer.consensus;

import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/** Client envelopes this node forwarded to other consenters, and those it received, for metrics. */
public final class ForwardCounts {

  /** What became of an envelope a consenter forwarded to this node; the label is the metric's. */
  public enum Received {
    ADMITTED("admitted"),
    INVALID("invalid"),
    NOT_A_MEMBER("not_a_member"),
    OVER_BUDGET("over_budget"),
    QUEUE_FULL("queue_full");

    private final String label;

    Received(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  private final AtomicLong toPrimary = new AtomicLong();
  private final AtomicLong toAll = new AtomicLong();
  private final Map<Received, AtomicLong> received = new EnumMap<>(Received.class);

  public ForwardCounts() {
    for (Received outcome : Received.values()) {
      received.put(outcome, new AtomicLong());
    }
  }

  void sentToPrimary() {
    toPrimary.incrementAndGet();
  }

  void sentToAll() {
    toAll.incrementAndGet();
  }

  /** Envelopes sent to the primary after one forward timeout. */
  public long toPrimary() {
    return toPrimary.get();
  }

  /** Envelopes sent to every other consenter after a second timeout (counted once each). */
  public long toAll() {
    return toAll.get();
  }

  public void add(Received outcome) {
    // Every outcome got its counter in the constructor.
    Objects.requireNonNull(received.get(outcome)).incrementAndGet();
  }

  public long received(Received outcome) {
    return Objects.requireNonNull(received.get(outcome)).get();
  }

  /** Every outcome's count of received envelopes, by metric label. */
  public Map<String, Long> receivedByLabel() {
    Map<String, Long> labelled = new TreeMap<>();
    received.forEach((outcome, count) -> labelled.put(outcome.label(), count.get()));
    return labelled;
  }
}
