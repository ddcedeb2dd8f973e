package io.rubinbft.net.shm;

import io.rubinbft.net.verbs.CompletionHandler;
import io.rubinbft.net.verbs.CompletionQueue;
import io.rubinbft.net.verbs.VerbsException;
import java.util.Arrays;

/**
 * A completion queue over the queue pairs that report to it. Completions are not copied into a
 * queue of their own: each pair's send ring and receive ring hold them, in posting order, until
 * they are polled, so this queue needs no storage of its own. Its capacity still bounds the work
 * requests of the pairs attached to it, as rdma-core's binding enforces (a real CQ would overrun),
 * so a configuration that fails on RDMA fails here too. A poll first lets every attached pair make
 * a delivery pass (the "NIC" work), then hands out completions, starting at a different pair each
 * time so that one busy pair cannot starve the others.
 */
final class ShmCompletionQueue implements CompletionQueue {

  private static final ShmQueuePair[] NONE = new ShmQueuePair[0];

  private final ShmVerbsDevice device;
  private final int capacity;
  private long reserved;
  private ShmQueuePair[] pairs = NONE;
  private int nextStart;
  private boolean closed;

  ShmCompletionQueue(ShmVerbsDevice device, int capacity) {
    this.device = device;
    this.capacity = capacity;
  }

  ShmVerbsDevice device() {
    return device;
  }

  /** Takes room for {@code workRequests} more completions of a new pair, or refuses. */
  void reserve(int workRequests) throws VerbsException {
    if (reserved + workRequests > capacity) {
      throw new VerbsException(
          "completion queue of capacity "
              + capacity
              + " cannot take "
              + workRequests
              + " more work requests: "
              + reserved
              + " are reserved by its queue pairs");
    }
    reserved += workRequests;
  }

  void release(int workRequests) {
    reserved -= workRequests;
  }

  void attach(ShmQueuePair pair) {
    if (!Arrays.asList(pairs).contains(pair)) {
      pairs = Arrays.copyOf(pairs, pairs.length + 1);
      pairs[pairs.length - 1] = pair;
    }
  }

  void detach(ShmQueuePair pair) {
    pairs = Arrays.stream(pairs).filter(p -> p != pair).toArray(ShmQueuePair[]::new);
  }

  @Override
  public int poll(CompletionHandler handler, int max) {
    if (closed) {
      throw new IllegalStateException("completion queue of " + device.name() + " is closed");
    }
    ShmQueuePair[] snapshot = pairs;
    int count = snapshot.length;
    if (count == 0) {
      return 0;
    }
    for (ShmQueuePair pair : snapshot) {
      pair.progress();
    }
    int delivered = 0;
    int start = nextStart % count;
    nextStart = start + 1;
    for (int i = 0; i < count && delivered < max; i++) {
      ShmQueuePair pair = snapshot[(start + i) % count];
      if (pair.sendCompletions() == this) {
        delivered += pair.pollSends(handler, max - delivered);
      }
      if (pair.receiveCompletions() == this) {
        delivered += pair.pollReceives(handler, max - delivered);
      }
    }
    return delivered;
  }

  @Override
  public void close() {
    closed = true;
    device.forget(this);
  }
}
