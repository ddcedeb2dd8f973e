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
import java.util.NavigableSet;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * The slots of the sequences not yet decided and garbage collected, plus the most recent decisions
 * (kept for chaining and to serve state transfer). Delivery is gap-free and in order. The log
 * starts at its epoch's anchor: the anchor's digest and proposal are known for chaining, but the
 * anchor and what lies below it are never served (their certificates belong to an older epoch).
 * Until the stable checkpoint passes them, it keeps the prepared certificates of delivered
 * sequences that match their decision: a view change carries them, so that a new view can
 * re-propose what only a Byzantine replica may have decided ({@link NewViewComputation}).
 *
 * <p>It also decides where checkpoints fall, from the decided chain alone, so that every replica
 * finds the same ones: every K sequences after the last one, or earlier at the first sequence whose
 * proposals since the last one hold {@link io.rubinbft.bft.ReplicaConfig#checkpointBytes} request
 * bytes. Counting starts again at every stable checkpoint, which is a checkpoint everywhere (a
 * quorum signed it, so correct replicas found it), and at the first decision a WAL cut at a stable
 * checkpoint restores.
 */
final class SlotLog {

  private final Map<Long, Slot> slots = new HashMap<>();
  private final Map<Long, PreparedCertificate> deliveredCertificates = new HashMap<>();
  private final Decision[] retained;

  /** Digests and request bytes of the last decisions, at least a window of them, by sequence. */
  private final long[] decidedSequences;

  private final Digest[] decidedDigests;
  private final long[] decidedBytes;

  private final int checkpointInterval;
  private final long checkpointBytes;

  /** The last checkpoint at or below the last delivery, and the request bytes decided since. */
  private long lastCheckpoint;

  private long bytesSinceCheckpoint;

  /** The checkpoints found above the stable checkpoint, up to the last delivery. */
  private final NavigableSet<Long> checkpoints = new TreeSet<>();

  private final Epoch epoch;
  private final @Nullable Proposal anchorProposal;
  private long lastDelivered;
  private Digest lastDigest;

  /**
   * An empty log after the anchor of {@code epoch}, whose proposal (null at genesis) is given: it
   * keeps {@code retainedLimit} decisions and the digests of {@code digestLimit} (at least as
   * many), and finds a checkpoint every {@code checkpointInterval} sequences or at {@code
   * checkpointBytes} request bytes since the last.
   */
  SlotLog(
      int retainedLimit,
      int digestLimit,
      int checkpointInterval,
      long checkpointBytes,
      Epoch epoch,
      @Nullable Proposal anchorProposal) {
    this.retained = new Decision[retainedLimit];
    int digests = Math.max(retainedLimit, digestLimit);
    this.decidedSequences = new long[digests];
    this.decidedDigests = new Digest[digests];
    this.decidedBytes = new long[digests];
    this.checkpointInterval = checkpointInterval;
    this.checkpointBytes = checkpointBytes;
    this.lastCheckpoint = epoch.sequence();
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
    if (decision.sequence() > lastDelivered + 1 && decision.sequence() - 1 > lastCheckpoint) {
      // A WAL cut at a stable checkpoint starts after it (Recovery replays that checkpoint first).
      lastCheckpoint = decision.sequence() - 1;
      bytesSinceCheckpoint = 0;
    }
    lastDelivered = decision.sequence();
    lastDigest = decision.digest();
    retained[(int) (lastDelivered % retained.length)] = decision;
    int at = (int) (lastDelivered % decidedDigests.length);
    decidedSequences[at] = lastDelivered;
    decidedDigests[at] = decision.digest();
    decidedBytes[at] = decision.proposal().requestBytes();
    count(lastDelivered, decidedBytes[at]);
    Slot slot = slots.remove(lastDelivered);
    if (slot != null
        && slot.prepared != null
        && slot.prepared.prePrepare().digest().equals(decision.digest())) {
      deliveredCertificates.put(lastDelivered, slot.prepared);
    }
  }

  /** Counts a delivery towards the next checkpoint. */
  private void count(long sequence, long bytes) {
    if (sequence <= lastCheckpoint) {
      return;
    }
    bytesSinceCheckpoint += bytes;
    if (sequence - lastCheckpoint >= checkpointInterval
        || bytesSinceCheckpoint >= checkpointBytes) {
      checkpoints.add(sequence);
      lastCheckpoint = sequence;
      bytesSinceCheckpoint = 0;
    }
  }

  /** Whether a checkpoint falls at {@code sequence}, delivered above the stable checkpoint. */
  boolean isCheckpoint(long sequence) {
    return checkpoints.contains(sequence);
  }

  /** The checkpoints above the stable checkpoint, up to the last delivery. */
  NavigableSet<Long> checkpoints() {
    return checkpoints;
  }

  /** How far below the last delivery this log still knows decided digests. */
  int digestMemory() {
    return decidedDigests.length;
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
    int at = ringIndex(sequence);
    return at < 0 ? null : decidedDigests[at];
  }

  /** Where the digest ring holds {@code sequence}, or -1. */
  private int ringIndex(long sequence) {
    if (sequence <= epoch.sequence() || sequence > lastDelivered) {
      return -1;
    }
    int at = (int) (sequence % decidedDigests.length);
    return decidedSequences[at] == sequence && decidedDigests[at] != null ? at : -1;
  }

  /** Request bytes of the decided proposals in ({@code stable}, last delivery] this log knows. */
  long deliveredBytesAbove(long stable) {
    long bytes = 0;
    long from = Math.max(stable, lastDelivered - decidedDigests.length) + 1;
    for (long sequence = from; sequence <= lastDelivered; sequence++) {
      int at = ringIndex(sequence);
      bytes += at < 0 ? 0 : decidedBytes[at];
    }
    return bytes;
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

  /**
   * Drops the slots at or below the stable checkpoint, and counts checkpoints again from it: a
   * stable checkpoint is one everywhere (a quorum signed it), so counting from it finds what every
   * replica finds, also where this log started counting at a guess (a restored WAL that begins with
   * decisions below the stable checkpoint) or past the last delivery (an adopted checkpoint).
   */
  void collectGarbage(long stable) {
    slots.keySet().removeIf(sequence -> sequence <= stable);
    deliveredCertificates.keySet().removeIf(sequence -> sequence <= stable);
    checkpoints.clear();
    lastCheckpoint = stable;
    bytesSinceCheckpoint = 0;
    for (long sequence = stable + 1; sequence <= lastDelivered; sequence++) {
      int at = ringIndex(sequence);
      count(sequence, at < 0 ? 0 : decidedBytes[at]);
    }
  }
}
