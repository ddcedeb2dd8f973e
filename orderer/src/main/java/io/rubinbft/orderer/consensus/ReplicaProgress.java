package io.rubinbft.orderer.consensus;

import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Effects;
import io.rubinbft.bft.WalRecord;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;

/**
 * What one channel's replica has done since this node started, read from the effects of its steps
 * (so bft-core stays free of monitoring): proposals accepted, views installed, batches decided and
 * how long each took from acceptance to decision on this replica. Written by the replica host's
 * thread only; read from any thread.
 */
// The counters are volatile for their readers; only the replica host's thread writes them, so
// their read-modify-write updates cannot lose an increment.
@SuppressWarnings("NonAtomicVolatileUpdate")
public final class ReplicaProgress {

  /** Told about every decided batch, on the replica host's thread: must not block. */
  public interface DecisionListener {

    /**
     * @param requests how many requests the batch ordered
     * @param latencyNanos from this replica accepting (or, as primary, making) the proposal to its
     *     decision; empty when it was accepted before this node started or too long ago to track
     */
    void decided(int requests, OptionalLong latencyNanos);
  }

  /** Acceptance times are kept for this many sequences: more than any proposal window. */
  private static final int TRACKED = 4096;

  private final long[] acceptedSequence = new long[TRACKED];
  private final long[] acceptedAtNanos = new long[TRACKED];
  private volatile DecisionListener listener = (requests, latencyNanos) -> {};
  private volatile long lastAccepted;
  private volatile long viewChanges;
  private volatile long decidedBatches;
  private volatile long decidedRequests;

  ReplicaProgress() {
    Arrays.fill(acceptedSequence, -1);
  }

  /** Sends every later decision to {@code decisions} too. */
  public void listen(DecisionListener decisions) {
    this.listener = decisions;
  }

  /** The highest sequence this replica accepted a proposal for (0 before the first). */
  public long lastAccepted() {
    return lastAccepted;
  }

  /** New views this replica installed. */
  public long viewChanges() {
    return viewChanges;
  }

  public long decidedBatches() {
    return decidedBatches;
  }

  public long decidedRequests() {
    return decidedRequests;
  }

  /** Accounts for one batch of steps, whose WAL records are durable and decisions delivered. */
  void afterSteps(List<Effects> stepped, long nowNanos) {
    for (Effects effects : stepped) {
      for (WalRecord record : effects.persist()) {
        switch (record) {
          case WalRecord.Accepted accepted -> accepted(accepted.prePrepare().sequence(), nowNanos);
          case WalRecord.ViewInstalled installed -> viewChanges++;
          default -> {}
        }
      }
      for (Decision decision : effects.decisions()) {
        decided(decision, nowNanos);
      }
    }
  }

  private void accepted(long sequence, long nowNanos) {
    int slot = (int) (sequence % TRACKED);
    acceptedSequence[slot] = sequence;
    acceptedAtNanos[slot] = nowNanos;
    lastAccepted = Math.max(lastAccepted, sequence);
  }

  private void decided(Decision decision, long nowNanos) {
    int requests = decision.proposal().requests().size();
    int slot = (int) (decision.sequence() % TRACKED);
    OptionalLong latency =
        acceptedSequence[slot] == decision.sequence()
            ? OptionalLong.of(nowNanos - acceptedAtNanos[slot])
            : OptionalLong.empty();
    decidedBatches++;
    decidedRequests += requests;
    listener.decided(requests, latency);
  }
}
