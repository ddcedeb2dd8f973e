package io.rubinbft.orderer.consensus;

import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.RequestId;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * The client requests this replica admitted and has not seen decided, in the order they became due,
 * for forwarding as Fabric's SmartBFT does: still pending after the forward timeout, a request goes
 * to the primary (which may never have got it: the client sent it to this node only); still pending
 * after a second timeout, to every other consenter, so that if the primary censors it every correct
 * replica's request timer runs and they change view together. Used on the replica thread only.
 * Bounded by the request pool: it holds only what the pool admitted, at most its size.
 */
final class PendingForwards {

  /** Where a tracked request goes next when it is due. */
  enum Step {
    TO_PRIMARY,
    TO_ALL
  }

  /** A request due for forwarding. */
  record Due(Step step, byte[] envelope) {}

  private record Entry(Request request, long since, Step next) {}

  private final int capacity;
  private final LinkedHashMap<RequestId, Entry> entries = new LinkedHashMap<>();

  /**
   * @param capacity the request pool's size
   */
  PendingForwards(int capacity) {
    this.capacity = capacity;
  }

  /** Tracks {@code request}, admitted to the pool at tick {@code now}, unless tracked already. */
  void admitted(Request request, long now) {
    if (entries.size() < capacity && !entries.containsKey(request.id())) {
      entries.put(request.id(), new Entry(request, now, Step.TO_PRIMARY));
    }
  }

  /** Forgets the requests {@code decision} orders: nothing decided is forwarded. */
  void decided(Decision decision) {
    for (Request request : decision.proposal().requests()) {
      entries.remove(request.id());
    }
  }

  /**
   * The requests that waited {@code timeoutTicks} since they were admitted or last forwarded; one
   * forwarded to the primary waits once more, then goes to all and is forgotten.
   */
  List<Due> due(long now, long timeoutTicks) {
    List<Due> due = new ArrayList<>();
    List<Entry> again = new ArrayList<>();
    Iterator<Entry> oldest = entries.values().iterator();
    while (oldest.hasNext()) {
      Entry entry = oldest.next();
      if (now - entry.since() < timeoutTicks) {
        break;
      }
      oldest.remove();
      due.add(new Due(entry.next(), entry.request().payload()));
      if (entry.next() == Step.TO_PRIMARY) {
        again.add(new Entry(entry.request(), now, Step.TO_ALL));
      }
    }
    again.forEach(entry -> entries.put(entry.request().id(), entry));
    return due;
  }
}
