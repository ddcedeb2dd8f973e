package io.rubinbft.bft.protocol;

import io.rubinbft.bft.BatchPolicy;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.Refusal;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.RequestId;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Requests waiting to be decided, with a hard limit (push-back when full) and deduplication against
 * pending, in-flight and recently decided ids, so a request is never ordered twice.
 */
final class RequestPool {

  private record Pending(Request request, long arrivalTick) {}

  private final int limit;
  private final LinkedHashMap<RequestId, Pending> pending = new LinkedHashMap<>();

  /** The {@link Request#size} of the pending requests, summed: the host bounds its memory. */
  private long pendingBytes;

  /**
   * Pending requests in arrival order that may not be proposed yet. Entries proposed or decided
   * since are skipped where met (cheaper than removing them one by one).
   */
  private final ArrayDeque<Pending> unproposed = new ArrayDeque<>();

  private final Map<RequestId, Long> inFlight = new HashMap<>();
  private final RecentIds decided;

  RequestPool(int limit, int decidedIdMemory) {
    this.limit = limit;
    this.decided = new RecentIds(decidedIdMemory);
  }

  /**
   * Why the request is refused, or empty if it is pending now (or an identical copy was already): a
   * duplicate when its id was decided, a conflict when a different request is pending under its id,
   * pool full at the pool's bound.
   */
  Optional<Refusal> admit(Request request, long now) {
    RequestId id = request.id();
    if (decided.contains(id)) {
      return Optional.of(new Refusal.Duplicate(id));
    }
    Pending held = pending.get(id);
    if (held != null) {
      // Clients send the same request to every replica: a copy is pending already. Another
      // request under a pending id is never ordered, and its sender must hear so.
      return Arrays.equals(held.request().payload(), request.payload())
          ? Optional.empty()
          : Optional.of(new Refusal.Conflict(id));
    }
    if (pending.size() >= limit) {
      return Optional.of(new Refusal.PoolFull(limit + " requests pending"));
    }
    Pending entry = new Pending(request, now);
    pending.put(id, entry);
    pendingBytes += request.size();
    if (!inFlight.containsKey(id)) {
      if (unproposed.size() >= 2 * limit) {
        compact();
      }
      unproposed.add(entry);
    }
    return Optional.empty();
  }

  /** Whether any pending request may still be proposed. */
  boolean hasUnproposed() {
    dropStaleHead();
    return !unproposed.isEmpty();
  }

  /**
   * Whether the unproposed requests fill a batch under {@code policy}: as many as it holds, or one
   * more would not fit its bytes. Counts entries proposed since (skipped by {@link #nextBatch}), so
   * it may say full early; that only cuts a batch sooner.
   */
  boolean holdsFullBatch(BatchPolicy policy) {
    if (unproposed.size() >= policy.maxCount()) {
      return true;
    }
    // Every pending request counts in pendingBytes: below the limit no batch is full by bytes,
    // which spares the walk on every step of a lightly loaded primary.
    if (pendingBytes < policy.maxBytes()) {
      return false;
    }
    long bytes = 0;
    for (Pending entry : unproposed) {
      int size = entry.request().size();
      if (!proposable(entry) || size > policy.maxBytes()) {
        continue;
      }
      bytes += size;
      if (bytes >= policy.maxBytes()) {
        return true;
      }
    }
    return false;
  }

  /** Whether the oldest unproposed request arrived at least {@code ticks} before {@code now}. */
  boolean oldestWaited(long now, int ticks) {
    return hasUnproposed() && now - unproposed.peekFirst().arrivalTick() >= ticks;
  }

  /**
   * The oldest unproposed requests within the policy's limits; the caller proposes them. A request
   * the policy places ALONE ends the batch before it, or is the whole batch; one it DROPs, or one
   * that alone exceeds the byte limit (a limit lowered since it arrived), leaves the pool. The
   * batch is empty only when every request looked at was dropped.
   */
  List<Request> nextBatch(BatchPolicy policy) {
    List<Request> batch = new ArrayList<>(Math.min(policy.maxCount(), unproposed.size()));
    List<RequestId> dropped = new ArrayList<>();
    long bytes = 0;
    for (Pending entry : unproposed) {
      if (!proposable(entry)) {
        continue;
      }
      Request request = entry.request();
      BatchPolicy.Placement placement = policy.placement().apply(request);
      if (placement == BatchPolicy.Placement.DROP || request.size() > policy.maxBytes()) {
        dropped.add(request.id());
        continue;
      }
      if (batch.size() == policy.maxCount() || bytes + request.size() > policy.maxBytes()) {
        break;
      }
      if (placement == BatchPolicy.Placement.ALONE) {
        if (batch.isEmpty()) {
          batch.add(request);
        }
        break;
      }
      batch.add(request);
      bytes += request.size();
    }
    dropped.forEach(this::removePending);
    return batch;
  }

  private boolean proposable(Pending entry) {
    RequestId id = entry.request().id();
    return pending.get(id) == entry && !inFlight.containsKey(id);
  }

  /** Drops stale entries behind a request that waits long, so the queue stays within bounds. */
  private void compact() {
    unproposed.removeIf(entry -> !proposable(entry));
  }

  private void dropStaleHead() {
    while (!unproposed.isEmpty() && !proposable(unproposed.peekFirst())) {
      unproposed.pollFirst();
    }
  }

  /** Why a proposal would order a request twice, or empty. */
  Optional<String> duplicateReason(Proposal proposal) {
    Set<RequestId> seen = new HashSet<>();
    for (Request request : proposal.requests()) {
      RequestId id = request.id();
      if (!seen.add(id)) {
        return Optional.of("duplicate: request " + id + " appears twice in one proposal");
      }
      if (decided.contains(id)) {
        return Optional.of("duplicate: request " + id + " was decided already");
      }
      Long other = inFlight.get(id);
      if (other != null && other != proposal.sequence()) {
        return Optional.of("duplicate: request " + id + " is also proposed at " + other);
      }
    }
    return Optional.empty();
  }

  /** The proposal was accepted in this view: its requests are no longer up for proposing. */
  void markInFlight(Proposal proposal) {
    for (Request request : proposal.requests()) {
      inFlight.put(request.id(), proposal.sequence());
    }
    dropStaleHead();
  }

  /** A view ended: proposals not decided may be dropped, so their requests are proposable again. */
  void resetInFlight() {
    inFlight.clear();
    unproposed.clear();
    unproposed.addAll(pending.values());
  }

  void onDecided(Proposal proposal) {
    for (Request request : proposal.requests()) {
      RequestId id = request.id();
      removePending(id);
      inFlight.remove(id);
      decided.add(id);
    }
  }

  /** Epoch switch: ids the previous epoch's replica decided, oldest first, count as decided. */
  void rememberDecided(List<RequestId> ids) {
    ids.forEach(decided::add);
  }

  /** The pending requests, oldest first. */
  List<Request> pending() {
    return pending.values().stream().map(Pending::request).toList();
  }

  /** The remembered decided ids, oldest first. */
  List<RequestId> decidedIds() {
    return decided.inOrder();
  }

  /** Arrival tick of the request waiting longest, if any. */
  OptionalLong oldestArrival() {
    Iterator<Pending> oldest = pending.values().iterator();
    return oldest.hasNext() ? OptionalLong.of(oldest.next().arrivalTick()) : OptionalLong.empty();
  }

  int size() {
    return pending.size();
  }

  long bytes() {
    return pendingBytes;
  }

  private void removePending(RequestId id) {
    Pending removed = pending.remove(id);
    if (removed != null) {
      pendingBytes -= removed.request().size();
    }
  }
}
