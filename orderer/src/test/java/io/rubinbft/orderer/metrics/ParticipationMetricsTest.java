package io.rubinbft.orderer.metrics;

import static io.rubinbft.orderer.metrics.MetricsScrape.value;
import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.orderer.cluster.ClusterStats;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Every joined channel gets Fabric's participation gauges (Fabric's values) and its ledger height;
 * a channel that pulls its blocks also its puller's counters.
 */
class ParticipationMetricsTest {

  @Test
  void consentersFollowersAndOnboardingsAreExportedWithFabricsValues() throws IOException {
    ParticipationView consenter =
        new ParticipationView(
            "ordered",
            ParticipationView.Relation.CONSENTER,
            ParticipationView.Status.ACTIVE,
            12,
            Optional.empty());
    ParticipationView follower =
        new ParticipationView(
            "followed",
            ParticipationView.Relation.FOLLOWER,
            ParticipationView.Status.ACTIVE,
            30,
            Optional.of(
                new ParticipationView.Pulling(
                    Optional.of("orderer2.example.com:7050"),
                    29,
                    Map.of("signatures", 2L, "chain", 0L),
                    1)));
    ParticipationView onboarding =
        new ParticipationView(
            "joining",
            ParticipationView.Relation.CONSENTER,
            ParticipationView.Status.ONBOARDING,
            3,
            Optional.of(new ParticipationView.Pulling(Optional.empty(), 3, Map.of(), 0)));
    OrdererMetrics metrics =
        OrdererMetrics.register(
            () -> List.of(consenter, follower, onboarding),
            List::of,
            () -> new ClusterStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
            Optional::empty,
            "test");

    Map<String, PrometheusText.Family> scraped = PrometheusText.parse(MetricsScrape.text(metrics));

    assertThat(value(scraped, "participation_consensus_relation", Map.of("channel", "ordered")))
        .isEqualTo(1);
    assertThat(value(scraped, "participation_consensus_relation", Map.of("channel", "followed")))
        .isEqualTo(2);
    assertThat(value(scraped, "participation_status", Map.of("channel", "followed"))).isEqualTo(1);
    assertThat(value(scraped, "participation_status", Map.of("channel", "joining"))).isEqualTo(2);
    assertThat(value(scraped, "ledger_blockchain_height", Map.of("channel", "followed")))
        .isEqualTo(30);
    assertThat(value(scraped, "ledger_blockchain_height", Map.of("channel", "ordered")))
        .isEqualTo(12);
    assertThat(
            value(
                scraped,
                "blockpull_source",
                Map.of("channel", "followed", "source", "orderer2.example.com:7050")))
        .isEqualTo(1);
    assertThat(scraped.get("blockpull_source").samples()).hasSize(1);
    assertThat(value(scraped, "blockpull_blocks_pulled_total", Map.of("channel", "followed")))
        .isEqualTo(29);
    assertThat(value(scraped, "blockpull_blocks_pulled_total", Map.of("channel", "joining")))
        .isEqualTo(3);
    assertThat(
            value(
                scraped,
                "blockpull_blocks_refused_total",
                Map.of("channel", "followed", "reason", "signatures")))
        .isEqualTo(2);
    assertThat(value(scraped, "blockpull_sources_distrusted", Map.of("channel", "followed")))
        .isEqualTo(1);
    assertThat(scraped.get("blockpull_blocks_pulled_total").samples())
        .noneMatch(s -> s.labels().get("channel").equals("ordered"));
  }
}
