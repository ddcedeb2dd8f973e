package io.rubinbft.orderer.tools.loadgen;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.HdrHistogram.Histogram;

/**
 * The result of a load run.
 *
 * @param mode how the envelopes were submitted
 * @param submitted transactions sent
 * @param accepted transactions a quorum of orderers took (SUCCESS, or Fabric's "request already
 *     exists"): the rest are the failed submits an application would see
 * @param refusals answers other than SUCCESS, over all orderers, by status and info ("STATUS:
 *     info"), "stream ended before answering" (the orderer ended a stream after refusing an earlier
 *     envelope pipelined on it), "stream failed: CODE" or "timeout"; answers after an envelope's
 *     quorum decided are not counted, as a gateway does not wait for them
 * @param refusalsByOrderer the same by orderer (host:port); orderers that refused nothing left out
 * @param answerMicros per submission, microseconds from sending it to the quorum's decision: how
 *     long a Fabric gateway's Submit would have kept the application waiting
 * @param answersOverBroadcastTimeout submissions decided later than {@link
 *     #FABRIC_BROADCAST_TIMEOUT}: a Fabric gateway with its default timeout fails them
 * @param delivery what Deliver returned
 * @param deliverFailovers how often Deliver moved to another orderer
 * @param elapsedSeconds from the first submission to the last delivered block
 */
public record LoadReport(
    SubmitMode mode,
    long submitted,
    long accepted,
    Map<String, Integer> refusals,
    Map<String, Map<String, Integer>> refusalsByOrderer,
    Histogram answerMicros,
    long answersOverBroadcastTimeout,
    DeliveryStats delivery,
    long deliverFailovers,
    double elapsedSeconds) {

  /**
   * Fabric's gateway's default {@code peer.gateway.broadcastTimeout} ({@code
   * internal/pkg/gateway/config/options.go}): once it passes, the gateway cancels the Broadcast
   * streams still unanswered and counts them as failures, so a Submit whose quorum has not answered
   * by then fails. (Its sample core.yaml sets 30 s; the application's own deadline may be shorter.)
   */
  public static final Duration FABRIC_BROADCAST_TIMEOUT = Duration.ofSeconds(10);

  /** Accepted transactions that never came back through Deliver. */
  public long lost() {
    return delivery.lost();
  }

  /** Transactions no quorum took: what Fabric's gateway reports to the application as failed. */
  public long failedSubmits() {
    return submitted - accepted;
  }

  public double deliveredPerSecond() {
    return elapsedSeconds <= 0 ? 0 : delivery.delivered() / elapsedSeconds;
  }

  /**
   * The run passed: something was accepted if anything was submitted (a run whose every envelope
   * was refused checks nothing), nothing lost, nothing duplicated, every block verified.
   */
  public boolean passed() {
    return (submitted == 0 || accepted > 0)
        && lost() == 0
        && delivery.duplicates() == 0
        && delivery.problem().isEmpty();
  }

  /** Latency percentile in milliseconds. */
  public double latencyMillis(double percentile) {
    Histogram h = delivery.latencyMicros();
    return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(percentile) / 1000.0;
  }

  /** Submit answer time percentile in milliseconds. */
  public double answerMillis(double percentile) {
    return answerMicros.getTotalCount() == 0
        ? 0
        : answerMicros.getValueAtPercentile(percentile) / 1000.0;
  }

  /** A human-readable summary, one fact per line. */
  public String format() {
    return String.format(
        Locale.ROOT,
        """
        submit mode        %s
        submitted          %d
        accepted (quorum)  %d
        failed submits     %d (%d of them delivered)
        refusals           %s
        refused by orderer %s
        submit answer ms   p50 %.1f  p99 %.1f  max %.1f  (%d after %d s)
        delivered          %d in %d blocks (%.1f tx/s over %.2f s)
        latency ms         p50 %.1f  p90 %.1f  p99 %.1f  max %.1f
        duplicates         %d
        lost               %d
        deliver failovers  %d
        foreign tx         %d
        chain+signatures   %s
        result             %s""",
        mode.label(),
        submitted,
        accepted,
        failedSubmits(),
        delivery.deliveredUnaccepted(),
        refusals.isEmpty() ? "none" : refusals,
        refusalsByOrderer.isEmpty() ? "none" : refusalsByOrderer,
        answerMillis(50),
        answerMillis(99),
        answerMillis(100),
        answersOverBroadcastTimeout,
        FABRIC_BROADCAST_TIMEOUT.toSeconds(),
        delivery.delivered(),
        delivery.blocks(),
        deliveredPerSecond(),
        elapsedSeconds,
        latencyMillis(50),
        latencyMillis(90),
        latencyMillis(99),
        latencyMillis(100),
        delivery.duplicates(),
        lost(),
        deliverFailovers,
        delivery.foreign(),
        delivery.problem().map(p -> "FAILED: " + p).orElse("verified"),
        passed() ? "PASSED" : "FAILED");
  }

  /** The first verification problem, if any. */
  public Optional<String> problem() {
    return delivery.problem();
  }
}
