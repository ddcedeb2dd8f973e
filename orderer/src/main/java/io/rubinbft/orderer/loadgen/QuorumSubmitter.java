package io.rubinbft.orderer.loadgen;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.BroadcastResponse;

/**
 * Sends each envelope to every orderer and waits for a quorum of SUCCESS, as Fabric's gateway does
 * with a BFT ordering service (SUCCESS means "in the request pool", not "ordered").
 */
final class QuorumSubmitter {

  /**
   * The outcome of one submission: accepted by a quorum or not, and how many orderers refused it
   * for which reason (a Fabric status name, "stream error" or "timeout").
   */
  record Outcome(boolean accepted, Map<String, Integer> refusals) {}

  private final List<BroadcastStream> streams;
  private final int quorum;
  private final long timeoutMillis;

  QuorumSubmitter(List<BroadcastStream> streams, int quorum, long timeoutMillis) {
    if (quorum < 1 || quorum > streams.size()) {
      throw new IllegalArgumentException(
          "quorum is " + quorum + " but there are " + streams.size() + " orderers");
    }
    this.streams = streams;
    this.quorum = quorum;
    this.timeoutMillis = timeoutMillis;
  }

  Outcome submit(Envelope envelope) throws InterruptedException {
    List<CompletableFuture<BroadcastResponse>> answers = new ArrayList<>(streams.size());
    for (BroadcastStream stream : streams) {
      answers.add(stream.submit(envelope));
    }
    int successes = 0;
    Map<String, Integer> refusals = new TreeMap<>();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    for (CompletableFuture<BroadcastResponse> answer : answers) {
      String refusal = refusal(answer, deadline);
      if (refusal == null) {
        successes++;
      } else {
        refusals.merge(refusal, 1, Integer::sum);
      }
      if (successes >= quorum) {
        return new Outcome(true, refusals);
      }
    }
    return new Outcome(false, refusals);
  }

  void close() {
    streams.forEach(BroadcastStream::close);
  }

  /** Null for SUCCESS, else why the orderer did not accept the envelope. */
  private static String refusal(CompletableFuture<BroadcastResponse> answer, long deadline)
      throws InterruptedException {
    try {
      long left = Math.max(0, deadline - System.nanoTime());
      Status status = answer.get(left, TimeUnit.NANOSECONDS).getStatus();
      return status == Status.SUCCESS ? null : status.name();
    } catch (ExecutionException e) {
      return "stream error";
    } catch (TimeoutException e) {
      return "timeout";
    }
  }
}
