package io.rubinbft.bft;

import java.util.List;

/**
 * What a replica of an ending epoch passes to the replica of the next one, so no request is lost or
 * ordered twice across the switch: the client requests it has not executed (pending, in flight, and
 * those of its decisions after the anchor, which nobody executes), oldest first, and the ids of the
 * requests it decided up to the anchor, oldest first (the deduplication memory).
 */
public record Handover(List<Request> pending, List<RequestId> decided) {

  /** Nothing to hand over: a genesis replica. */
  public static final Handover NONE = new Handover(List.of(), List.of());

  public Handover {
    pending = List.copyOf(pending);
    decided = List.copyOf(decided);
  }
}
