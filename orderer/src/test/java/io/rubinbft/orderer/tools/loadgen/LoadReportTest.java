package io.rubinbft.orderer.tools.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class LoadReportTest {

  private static final String ALREADY_PROCESSED =
      "SERVICE_UNAVAILABLE: failed to submit request: request already processed";

  @Test
  void aRunWithEverySubmissionRefusedFailsAlthoughNothingAcceptedWasLost() {
    LoadReport report = report(1, 0, 1, Map.of(ALREADY_PROCESSED, 3));

    assertThat(report.lost()).isZero();
    assertThat(report.passed()).isFalse();
    assertThat(report.format()).contains("result             FAILED");
  }

  @Test
  void transactionsRefusedByAQuorumButOrderedAnywayAreReportedWithTheirRefusals() {
    LoadReport report = report(100, 97, 3, Map.of(ALREADY_PROCESSED, 6));

    assertThat(report.passed()).isTrue();
    assertThat(report.format())
        .contains("accepted (quorum)  97\n")
        .contains("failed submits     3 (3 of them delivered)\n")
        .contains("refusals           {" + ALREADY_PROCESSED + "=6}\n")
        .contains("result             PASSED");
  }

  @Test
  void refusalsAreReportedByOrdererAndAnswerTimesWithThoseOverFabricsTimeout() {
    Histogram answers = new Histogram(3);
    answers.recordValue(TimeUnit.MILLISECONDS.toMicros(20));
    answers.recordValue(TimeUnit.SECONDS.toMicros(12));
    LoadReport report =
        new LoadReport(
            SubmitMode.GATEWAY,
            2,
            1,
            Map.of("timeout", 2),
            Map.of("127.0.0.1:7053", Map.of("timeout", 2)),
            answers,
            1,
            report(2, 1, 0, Map.of()).delivery(),
            0,
            1.0);

    assertThat(report.format())
        .contains("refused by orderer {127.0.0.1:7053={timeout=2}}\n")
        .containsPattern(
            "submit answer ms   p50 20\\.\\d  p99 1\\d{4}\\.\\d  max 1\\d{4}\\.\\d  \\(1 after 10 s\\)\n");
  }

  @Test
  void anEmptyRunPasses() {
    assertThat(report(0, 0, 0, Map.of()).passed()).isTrue();
  }

  /** A run whose accepted transactions were all delivered once, in verified blocks. */
  private static LoadReport report(
      long submitted, long accepted, long deliveredUnaccepted, Map<String, Integer> refusals) {
    Set<String> acceptedTxIds = txIds("accepted-", accepted);
    Set<String> deliveredTxIds = new HashSet<>(acceptedTxIds);
    deliveredTxIds.addAll(txIds("refused-", deliveredUnaccepted));
    DeliveryStats delivery =
        new DeliveryStats(
            1,
            deliveredTxIds,
            acceptedTxIds,
            0,
            0,
            0,
            new Histogram(TimeUnit.MINUTES.toMicros(1), 3),
            0,
            Optional.empty());
    return new LoadReport(
        SubmitMode.GATEWAY,
        submitted,
        accepted,
        refusals,
        Map.of(),
        new Histogram(3),
        0,
        delivery,
        0,
        1.0);
  }

  private static Set<String> txIds(String prefix, long count) {
    return LongStream.range(0, count).mapToObj(i -> prefix + i).collect(Collectors.toSet());
  }
}
