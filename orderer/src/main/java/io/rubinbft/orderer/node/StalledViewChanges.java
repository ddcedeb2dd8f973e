package io.rubinbft.orderer.node;

import io.rubinbft.orderer.concurrent.Threads;
import io.rubinbft.orderer.consensus.ReplicaHost;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Finds the channels whose replica has been changing views for the channel's view-change timeout
 * without installing one, as a SmartBFT orderer syncs when a view change times out. Such a replica
 * may be stalled for good behind an epoch end: when the config block that ended its epoch was
 * executed only by the nodes it removed (they follow the channel and run no replica), the members
 * it kept cannot form a view-change quorum, and nobody running the new epoch sends them a frame of
 * it. Only pulling blocks gets them out. The replica's own status tells the stall (no test hook):
 * its view is not installed.
 *
 * <p>While a replica stays stalled, it is reported again after each further wait, which doubles per
 * report up to {@link #MAX_DOUBLINGS} doublings of the timeout, and is forgotten once a view of the
 * channel is installed. One virtual thread polls every channel.
 */
final class StalledViewChanges implements AutoCloseable {

  private static final Duration POLL = Duration.ofMillis(200);

  /** The wait before a report is at most 2^3 view-change timeouts. */
  private static final int MAX_DOUBLINGS = 3;

  private final Supplier<Collection<ChannelRuntime>> runtimes;
  private final Consumer<ChannelRuntime> stalled;
  private final Thread thread;

  // Confined to the polling thread.
  private final Map<ChannelRuntime, Long> stalledSinceNanos = new HashMap<>();
  private final Map<String, Integer> reportsInARow = new HashMap<>();

  /**
   * @param runtimes the channels served now
   * @param stalled told, on the polling thread, of a runtime whose view change stalls: must not
   *     block
   */
  StalledViewChanges(
      Supplier<Collection<ChannelRuntime>> runtimes, Consumer<ChannelRuntime> stalled) {
    this.runtimes = runtimes;
    this.stalled = stalled;
    this.thread = Thread.ofVirtual().name("stalled-view-changes").start(this::run);
  }

  @Override
  public void close() {
    Threads.interruptAndJoin(thread);
  }

  private void run() {
    try {
      while (!Thread.currentThread().isInterrupted()) {
        Thread.sleep(POLL);
        poll(System.nanoTime());
      }
    } catch (InterruptedException e) {
      // closed
    }
  }

  private void poll(long now) {
    Collection<ChannelRuntime> served = runtimes.get();
    stalledSinceNanos.keySet().retainAll(served);
    for (ChannelRuntime runtime : served) {
      String channel = runtime.ledger().name();
      if (!changingViews(runtime)) {
        stalledSinceNanos.remove(runtime);
        reportsInARow.remove(channel);
        continue;
      }
      long since = stalledSinceNanos.computeIfAbsent(runtime, r -> now);
      int reports = reportsInARow.getOrDefault(channel, 0);
      Duration patience =
          runtime
              .config()
              .pbft()
              .viewChangeTimeout()
              .multipliedBy(1L << Math.min(reports, MAX_DOUBLINGS));
      if (now - since >= patience.toNanos()) {
        stalledSinceNanos.put(runtime, now);
        reportsInARow.put(channel, reports + 1);
        stalled.accept(runtime);
      }
    }
  }

  /** Whether the runtime's replica orders on the channel and is changing to a view. */
  static boolean changingViews(ChannelRuntime runtime) {
    return runtime
        .host()
        .filter(ReplicaHost::member)
        .map(host -> !host.status().viewInstalled())
        .orElse(false);
  }
}
