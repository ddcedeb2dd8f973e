package io.rubinbft.orderer.consensus;

import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/** Consensus messages from peers the host dropped before its replica saw them, by reason. */
public final class PeerDrops {

  /** Why a peer's message never reached the replica; the label is the metric's reason. */
  public enum Reason {
    NOT_A_MEMBER("not_a_member"),
    UNDECODABLE("undecodable"),
    QUEUE_FULL("queue_full"),
    OLDER_EPOCH("older_epoch"),
    NEWER_EPOCH("newer_epoch");

    private final String label;

    Reason(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  private final Map<Reason, AtomicLong> counts = new EnumMap<>(Reason.class);

  PeerDrops() {
    for (Reason reason : Reason.values()) {
      counts.put(reason, new AtomicLong());
    }
  }

  void add(Reason reason) {
    // Every reason got its counter in the constructor.
    Objects.requireNonNull(counts.get(reason)).incrementAndGet();
  }

  public long count(Reason reason) {
    return Objects.requireNonNull(counts.get(reason)).get();
  }

  public long total() {
    return counts.values().stream().mapToLong(AtomicLong::get).sum();
  }

  /** Every reason's count, by metric label. */
  public Map<String, Long> byLabel() {
    Map<String, Long> labelled = new TreeMap<>();
    counts.forEach((reason, count) -> labelled.put(reason.label(), count.get()));
    return labelled;
  }
}
