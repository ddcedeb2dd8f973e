package io.rubinbft.orderer.tools.loadgen;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.BroadcastResponse;
import org.jspecify.annotations.Nullable;

/**
 * The orderers' answers to one submitted envelope, collected until a quorum took it, more orderers
 * refused it than a quorum can spare (Fabric's gateway then fails the submit at once), or the
 * submitter stopped waiting. Orderers answer on gRPC's network threads: {@link #answer} never
 * blocks beyond this object's monitor, which no one holds while calling gRPC.
 */
final class QuorumAnswer {

  /**
   * SmartBFT's answer for a request already in its pool: the one refusal Fabric's gateway counts as
   * success ({@code internal/pkg/gateway/submit.go}).
   */
  static final String ALREADY_EXISTS = "failed to submit request: request already exists";

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
  synchronized void answer(@Nullable String refusal) {
    if (decided) {
      return;
    }
    answered++;
    if (refusal == null) {
      successes++;
    } else {
      refusals.merge(refusal, 1, Integer::sum);
    }
    if (successes >= quorum || answered - successes > orderers - quorum) {
      decided = true;
      notifyAll();
    }
  }

  /**
   * Fabric's gateway's success rule: null when {@code response} counts as the orderer taking the
   * envelope (SUCCESS, or SERVICE_UNAVAILABLE with exactly {@link #ALREADY_EXISTS}), else the
   * refusal as "STATUS: info", so a report tells "pool full" from "already processed".
   */
  static @Nullable String refusal(BroadcastResponse response) {
    Status status = response.getStatus();
    String info = response.getInfo();
    if (status == Status.SUCCESS
        || (status == Status.SERVICE_UNAVAILABLE && info.equals(ALREADY_EXISTS))) {
      return null;
    }
    return info.isEmpty() ? status.name() : status.name() + ": " + info;
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
