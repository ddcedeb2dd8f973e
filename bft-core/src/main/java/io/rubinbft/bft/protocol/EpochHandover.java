package io.rubinbft.bft.protocol;

import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Handover;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.RequestId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Builds the {@link Handover} of a replica whose epoch the host ends at an anchor it executed. The
 * replica may have delivered decisions after the anchor (pipelining, or several deliveries in one
 * step): nobody executes them, so their requests go back to pending and their ids are forgotten.
 */
final class EpochHandover {

  private EpochHandover() {}

  static Handover of(Context ctx, long anchor) {
    List<Decision> discarded = decisionsAfter(ctx, anchor);
    Map<RequestId, Request> pending = new LinkedHashMap<>();
    discarded.forEach(decision -> addRequests(pending, decision.proposal()));
    ctx.log.all().stream()
        .sorted(Comparator.comparingLong(slot -> slot.sequence))
        .map(Slot::proposalInFlight)
        .filter(Objects::nonNull)
        .forEach(proposal -> addRequests(pending, proposal));
    ctx.pool.pending().forEach(request -> pending.putIfAbsent(request.id(), request));
    Set<RequestId> undone = new HashSet<>();
    discarded.forEach(decision -> decision.proposal().requests().forEach(r -> undone.add(r.id())));
    List<RequestId> decided =
        ctx.pool.decidedIds().stream().filter(id -> !undone.contains(id)).toList();
    return new Handover(List.copyOf(pending.values()), decided);
  }

  private static List<Decision> decisionsAfter(Context ctx, long anchor) {
    long delivered = ctx.log.lastDelivered();
    if (anchor < ctx.epoch.sequence() || anchor > delivered) {
      throw new IllegalArgumentException(
          "handover at " + anchor + " but this replica delivered up to " + delivered);
    }
    List<Decision> after = new ArrayList<>();
    for (long sequence = anchor + 1; sequence <= delivered; sequence++) {
      Decision decision = ctx.log.decision(sequence);
      if (decision == null) {
        throw new IllegalArgumentException(
            "handover at " + anchor + " but the decision at " + sequence + " is no longer held");
      }
      after.add(decision);
    }
    return after;
  }

  private static void addRequests(Map<RequestId, Request> pending, Proposal proposal) {
    proposal.requests().forEach(request -> pending.putIfAbsent(request.id(), request));
  }
}
