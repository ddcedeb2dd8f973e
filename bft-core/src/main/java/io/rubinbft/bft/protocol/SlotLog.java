package io.rubinbft.bft.protocol;

import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Epoch;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.message.Decisions;
import io.rubinbft.bft.message.PreparedCertificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The slots of the sequences not yet decided and garbage collected, plus the most recent decisions
 * (kept for chaining and to serve state transfer). Delivery is gap-free and in order. The log
 * starts at its epoch's anchor: the anchor's digest and proposal are known for chaining, but the
 * anchor and what lies below it are never served (their certificates belong to an older epoch).
 * Until the stable checkpoint passes them, it keeps the prepared certificates of delivered
 * sequences that match their decision: a view change carries them, so that a new view can
 * re-propose what only a Byzantine replica may have decided ({@link NewViewComputation}).
 */
final class SlotLog {

  private final Map<Long, Slot> slots = new HashMap<>();
  private final Map<Long, PreparedCertificate> deliveredCertificates = new HashMap<>();
  private final Decision[] retained;
  private final Epoch epoch;
  private final @Nullable Proposal anchorProposal;
  private long lastDelivered;
  private Digest lastDigest;

  /** An empty log after the anchor of {@code epoch}, whose proposal (null at genesis) is given. */
  SlotLog(int retainedLimit, Epoch epoch, @Nullable Proposal anchorProposal) {
    this.retained = new Decision[retainedLimit];
    this.epoch = epoch;
    this.anchorProposal = anchorProposal;
    this.lastDelivered = epoch.sequence();
    this.lastDigest = epoch.digest();
  }

  Slot slot(long sequence) {
    return slots.computeIfAbsent(sequence, Slot::new);
  }

  /** The slot if it exists, else null. */
  @Nullable Slot existing(long sequence) {
    return slots.get(sequence);
  }

  Collection<Slot> all() {
    return slots.values();
  }

  long lastDelivered() {
    return lastDelivered;
  }

  Digest lastDigest() {
    return lastDigest;
  }

  /** Records a delivery; the caller delivers in order. */
  void delivered(Decision decision) {
    if (decision.sequence() != lastDelivered + 1) {
      throw new IllegalStateException(
          "delivering " + decision.sequence() + " but last delivered is " + lastDelivered);
    }
    restore(decision);
  }

  /** Recovery: the WAL may start at a stable checkpoint, so the first decision may skip ahead. */
  void restore(Decision decision) {
    if (decision.sequence() <= lastDelivered) {
      throw new IllegalStateException(
          "restoring " + decision.sequence() + " but last delivered is " + lastDelivered);
    }
    lastDelivered = decision.sequence();
    lastDigest = decision.digest();
    retained[(int) (lastDelivered % retained.length)] = decision;
    Slot slot = slots.remove(lastDelivered);
    if (slot != null
        && slot.prepared != null
        && slot.prepared.prePrepare().digest().equals(decision.digest())) {
      deliveredCertificates.put(lastDelivered, slot.prepared);
    }
  }

  /** The prepared certificates of delivered sequences above the stable checkpoint, if known. */
  Collection<PreparedCertificate> deliveredCertificates() {
    return deliveredCertificates.values();
  }

  /**
   * The body with this digest at {@code sequence} that this log holds (in flight, prepared,
   * delivered with its certificate, or decided and retained), or null.
   */
  @Nullable Proposal body(long sequence, Digest digest) {
    Slot slot = slots.get(sequence);
    Proposal body = slot == null ? null : slot.proposalWith(digest);
    if (body == null) {
      PreparedCertificate certificate = deliveredCertificates.get(sequence);
      if (certificate != null && certificate.prePrepare().digest().equals(digest)) {
        body = certificate.prePrepare().proposal();
      }
    }
    if (body == null) {
      Decision decision = decision(sequence);
      body = decision != null && decision.digest().equals(digest) ? decision.proposal() : null;
    }
    return body == null || body.isHollow() ? null : body;
  }

  /** The decision at {@code sequence} if still retained, else null. */
  @Nullable Decision decision(long sequence) {
    if (sequence <= epoch.sequence()
        || sequence > lastDelivered
        || sequence <= lastDelivered - retained.length) {
      return null;
    }
    Decision decision = retained[(int) (sequence % retained.length)];
    return decision != null && decision.sequence() == sequence ? decision : null;
  }

  /** Decided digest at {@code sequence} (the anchor's at the anchor), or null if unknown. */
  @Nullable Digest decidedDigest(long sequence) {
    if (sequence == epoch.sequence()) {
      return epoch.digest();
    }
    if (sequence == lastDelivered) {
      return lastDigest;
    }
    Decision decision = decision(sequence);
    return decision == null ? null : decision.digest();
  }

  /** Decided proposal at {@code sequence} (the anchor's at the anchor; none at 0), or null. */
  @Nullable Proposal decidedProposal(long sequence) {
    if (sequence == epoch.sequence()) {
      return anchorProposal;
    }
    Decision decision = decision(sequence);
    return decision == null ? null : decision.proposal();
  }

  /**
   * Up to {@code max} consecutive retained decisions from {@code from} on, cut as an answer is
   * ({@link Decisions.Budget}: at least one, within {@code maxBytes} and the count).
   */
  List<Decision> decisionsFrom(long from, int max, long maxBytes) {
    List<Decision> result = new ArrayList<>();
    Decisions.Budget budget = new Decisions.Budget(max, maxBytes);
    for (long sequence = from; sequence <= lastDelivered && budget.open(); sequence++) {
      Decision decision = decision(sequence);
      if (decision == null || !budget.take(decision)) {
        break;
      }
      result.add(decision);
    }
    return result;
  }

  /** Drops the slots at or below the stable checkpoint. */
  void collectGarbage(long stable) {
    slots.keySet().removeIf(sequence -> sequence <= stable);
    deliveredCertificates.keySet().removeIf(sequence -> sequence <= stable);
  }
}
