package io.rubinbft.orderer.tools.loadgen;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.BroadcastResponse;
import org.jspecify.annotations.Nullable;

/**
 * The orderers' answers to one submitted envelope, collected until a quorum took it, more orderers
 * refused it than a quorum can spare (Fabric's gateway then fails the submit at once), or the
 * submitter stopped waiting. Orderers answer on gRPC's network threads: {@link OrdererAnswer} never
 * blocks beyond this object's monitor, which no one holds while calling gRPC.
 */
final class QuorumAnswer {

  /**
   * SmartBFT's answer for a request already in its pool: the one refusal Fabric's gateway counts as
   * success ({@code internal/pkg/gateway/submit.go}).
   */
  static final String ALREADY_EXISTS = "failed to submit request: request already exists";

  /** Where one orderer's answer to this envelope goes. */
  @FunctionalInterface
  interface OrdererAnswer {

    /**
     * The orderer's answer: null for SUCCESS, else why it did not accept ("STATUS: info" or why its
     * stream gave no answer). Answers after the decision are ignored, as a gateway ignores them.
     */
    void answer(@Nullable String refusal);
  }

  private final int quorum;
  private final List<String> orderers;
  private final boolean[] answeredBy;
  private final long startedNanos = System.nanoTime();
  private final Map<String, Integer> refusals = new TreeMap<>();
  private final Map<String, Map<String, Integer>> refusalsByOrderer = new TreeMap<>();
  private int successes;
  private int answered;
  private boolean decided;
  private long decidedNanos;

  /**
   * @param orderers the orderers' names (host:port), in the order {@link #from} is asked
   */
  QuorumAnswer(int quorum, List<String> orderers) {
    this.quorum = quorum;
    this.orderers = List.copyOf(orderers);
    this.answeredBy = new boolean[orderers.size()];
  }

  /** Where the answer of the {@code orderer}-th orderer goes; counted once. */
  OrdererAnswer from(int orderer) {
    return refusal -> answer(orderer, refusal);
  }

  private synchronized void answer(int orderer, @Nullable String refusal) {
    if (decided || answeredBy[orderer]) {
      return;
    }
    answeredBy[orderer] = true;
    answered++;
    if (refusal == null) {
      successes++;
    } else {
      refuse(orderer, refusal, 1);
    }
    if (successes >= quorum || answered - successes > orderers.size() - quorum) {
      decide();
    }
  }

  private void refuse(int orderer, String refusal, int count) {
    refusals.merge(refusal, count, Integer::sum);
    refusalsByOrderer
        .computeIfAbsent(orderers.get(orderer), o -> new TreeMap<>())
        .merge(refusal, count, Integer::sum);
  }

  private void decide() {
    decided = true;
    decidedNanos = System.nanoTime();
    notifyAll();
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
        for (int orderer = 0; orderer < answeredBy.length; orderer++) {
          if (!answeredBy[orderer]) {
            refuse(orderer, "timeout", 1);
          }
        }
        decide();
      } else {
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
    }
    Map<String, Map<String, Integer>> byOrderer = new TreeMap<>();
    refusalsByOrderer.forEach((orderer, reasons) -> byOrderer.put(orderer, Map.copyOf(reasons)));
    return new QuorumSubmitter.Outcome(
        successes >= quorum,
        Map.copyOf(refusals),
        Map.copyOf(byOrderer),
        decidedNanos - startedNanos);
  }
}
