package io.rubinbft.orderer.loadgen;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The orderers' answers to one submitted envelope, collected until a quorum answered SUCCESS, every
 * orderer answered, or the submitter stopped waiting. Orderers answer on gRPC's network threads:
 * {@link #answer} never blocks beyond this object's monitor, which no one holds while calling gRPC.
 */
final class QuorumAnswer {

  private final int quorum;
  private final int orderers;
  private final Map<String, Integer> refusals = new TreeMap<>();
  private int successes;
  private int answered;
  private boolean decided;

  QuorumAnswer(int quorum, int orderers) {
    this.quorum = quorum;
    this.orderers = orderers;
  }

  /**
   * One orderer's answer: null for SUCCESS, else why it did not accept ("STATUS: info" or why its
   * stream gave no answer). Answers after the decision are ignored, as a gateway ignores them.
   */
  synchronized void answer(String refusal) {
    if (decided) {
      return;
    }
    answered++;
    if (refusal == null) {
      successes++;
    } else {
      refusals.merge(refusal, 1, Integer::sum);
    }
    if (successes >= quorum || answered == orderers) {
      decided = true;
      notifyAll();
    }
  }

  /**
   * Waits for the decision until {@code deadlineNanos} (System.nanoTime); orderers that have not
   * answered by then count as refusals for "timeout".
   */
  synchronized QuorumSubmitter.Outcome await(long deadlineNanos) throws InterruptedException {
    while (!decided) {
      long left = deadlineNanos - System.nanoTime();
      if (left <= 0) {
        decided = true;
        refusals.merge("timeout", orderers - answered, Integer::sum);
      } else {
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
    }
    return new QuorumSubmitter.Outcome(successes >= quorum, Map.copyOf(refusals));
  }
}
