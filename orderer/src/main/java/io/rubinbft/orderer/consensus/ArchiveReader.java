package io.rubinbft.orderer.consensus;

import io.rubinbft.bft.ArchiveRead;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.message.Decisions;
import io.rubinbft.orderer.concurrent.Worker;
import io.rubinbft.orderer.concurrent.WorkerGroup;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves one channel's archive reads (peers catching up on decisions its replica no longer holds)
 * from the ledger on a thread of its own, so that a slow ledger, or a peer that asks for old blocks
 * without end, never holds up the replica thread: that thread only hands reads over. Bounded per
 * asking peer: at most one read waits per peer, a newer one replacing it (a peer has one fetch
 * under way at a time, and bft-core paces each peer's reads by bytes), and one read is served at a
 * time, so the reader holds at most one answer ({@code ReplicaConfig.answerMaxBytes}, or one larger
 * block) and one small waiting read per peer. An answer goes straight to the network, framed with
 * the epoch of the replica that asked (a late one is checked by the asker like any answer, and
 * dropped there if its epoch is over). A read that fails is logged and skipped: the asker's fetch
 * deadline moves it to another source.
 */
final class ArchiveReader implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ArchiveReader.class);

  /** Sends an answer to a peer of {@code epoch}, framed with that epoch. */
  @FunctionalInterface
  interface Answers {
    void send(EpochReplica epoch, int replica, Decisions answer);
  }

  private record Waiting(EpochReplica epoch, ArchiveRead read) {}

  private final String channel;
  private final Answers answers;
  // Per asking peer (its replica index), the read it waits for; guarded by this.
  private final Map<Integer, Waiting> waiting = new LinkedHashMap<>();
  private final AtomicLong replaced = new AtomicLong();
  private final AtomicLong served = new AtomicLong();
  private boolean open = true;
  private final Worker worker;

  /**
   * @param group the workers the channel's replica needs, which this reader joins: a read that
   *     throws is logged and the next served, but an {@link Error} ends the reader
   */
  ArchiveReader(String channel, Answers answers, WorkerGroup group) {
    this.channel = channel;
    this.answers = answers;
    this.worker =
        Worker.named("archive-" + channel)
            .wakeWith(this::endWaits)
            .partOf(group, "archive reader")
            .start(self -> run());
  }

  /** Hands {@code reads} of {@code epoch}'s replica over; returns at once. */
  void read(EpochReplica epoch, List<ArchiveRead> reads) {
    if (reads.isEmpty()) {
      return;
    }
    synchronized (this) {
      for (ArchiveRead read : reads) {
        if (waiting.remove(read.replica()) != null) {
          replaced.incrementAndGet();
        }
        waiting.put(read.replica(), new Waiting(epoch, read));
      }
      notifyAll();
    }
  }

  /** Reads dropped because the same peer asked again before they were served. */
  long replaced() {
    return replaced.get();
  }

  /** Reads served (answered, or found empty). */
  long served() {
    return served.get();
  }

  private void run() {
    while (true) {
      Waiting next;
      synchronized (this) {
        while (open && waiting.isEmpty()) {
          try {
            wait();
          } catch (InterruptedException e) {
            return;
          }
        }
        if (!open) {
          return;
        }
        Iterator<Waiting> first = waiting.values().iterator();
        next = first.next();
        first.remove();
      }
      serve(next);
    }
  }

  private void serve(Waiting next) {
    try {
      List<Decision> decisions = next.epoch().archive().decisions(next.read());
      if (!decisions.isEmpty()) {
        answers.send(
            next.epoch(), next.read().replica(), new Decisions(decisions, next.epoch().self()));
      }
    } catch (RuntimeException e) {
      LOG.warn(
          "channel {}: archive read from {} for replica {} failed",
          channel,
          next.read().from(),
          next.read().replica(),
          e);
    }
    served.incrementAndGet();
  }

  @Override
  public void close() {
    worker.close();
  }

  private synchronized void endWaits() {
    open = false;
    waiting.clear();
    notifyAll();
  }
}
