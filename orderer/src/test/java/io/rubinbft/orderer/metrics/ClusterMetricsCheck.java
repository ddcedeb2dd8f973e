package io.rubinbft.orderer.metrics;

import static io.rubinbft.orderer.metrics.MetricsScrape.value;
import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.orderer.node.ChannelRuntime;
import io.rubinbft.orderer.node.OrdererNode;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Scrapes every node's {@code /metrics} over HTTP during an end-to-end run, parses it as Prometheus
 * does, and checks the values against what the nodes and the load generator saw.
 */
public final class ClusterMetricsCheck {

  private static final String TX = "ENDORSER_TRANSACTION";

  private final List<OrdererNode> nodes;
  private final String channel;

  public ClusterMetricsCheck(List<OrdererNode> nodes, String channel) {
    this.nodes = nodes;
    this.channel = channel;
  }

  /**
   * Checks a run since the nodes started in which the load generator broadcast {@code submitted}
   * envelopes to every node and read {@code blocksRead} blocks through the first node's Deliver.
   */
  public void verify(long submitted, long blocksRead) throws IOException, InterruptedException {
    List<Map<String, PrometheusText.Family>> scrapes = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      long blocksSent = i == 0 ? blocksRead : 0;
      // The last answers and the network's counters may trail the client by a moment, and a
      // link that came up late carries its first frames with the next status round.
      scrapes.add(
          awaitScrape(
              nodes.get(i),
              m ->
                  value(m, "broadcast_processed_count", Map.of("channel", channel)) == submitted
                      && value(m, "deliver_blocks_sent", Map.of()) == blocksSent
                      && value(m, "deliver_streams_closed", Map.of())
                          == value(m, "deliver_streams_opened", Map.of())
                      && m.containsKey("cluster_net_frames_sent_total")
                      && peersWithFrames(m, "cluster_net_frames_sent_total", "out").size()
                          == nodes.size() - 1
                      && peersWithFrames(m, "cluster_net_frames_received_total", "in").size()
                          == nodes.size() - 1));
    }
    for (int i = 0; i < nodes.size(); i++) {
      checkNode(nodes.get(i), scrapes.get(i), submitted, i == 0 ? blocksRead : 0);
    }
    Set<Double> views =
        scrapes.stream()
            .map(m -> value(m, "consensus_smartbft_view_number", Map.of("channel", channel)))
            .collect(Collectors.toSet());
    Set<Double> leaders =
        scrapes.stream()
            .map(m -> value(m, "consensus_smartbft_view_leader_id", Map.of("channel", channel)))
            .collect(Collectors.toSet());
    // The load generator got a quorum of SUCCESS for every envelope.
    ChannelRuntime runtime = nodes.getFirst().channels().runtime(channel).orElseThrow();
    double successes =
        scrapes.stream()
            .mapToDouble(
                m ->
                    value(
                        m,
                        "broadcast_processed_count",
                        Map.of("channel", channel, "status", "SUCCESS")))
            .sum();
    assertThat(successes)
        .isGreaterThanOrEqualTo(
            (double) submitted * runtime.config().consenters().quorums().quorum());
    assertThat(views).as("view numbers across nodes").hasSize(1);
    assertThat(leaders).as("leaders across nodes").hasSize(1);
    // Fabric's own BFT gauges agree: one node is the leader, the one all name.
    assertThat(
            scrapes.stream()
                .mapToDouble(m -> value(m, "consensus_BFT_is_leader", Map.of("channel", channel)))
                .sum())
        .isEqualTo(1);
    assertThat(
            scrapes.stream()
                .map(m -> value(m, "consensus_BFT_leader_id", Map.of("channel", channel)))
                .collect(Collectors.toSet()))
        .isEqualTo(leaders);
    long leader = leaders.iterator().next().longValue();
    assertThat(runtime.config().consenters().byId(leader)).as("leader " + leader).isPresent();
  }

  private void checkNode(
      OrdererNode node, Map<String, PrometheusText.Family> m, long submitted, long blocksSent) {
    ChannelLedger ledger = node.channels().runtime(channel).orElseThrow().ledger();
    Map<String, String> onChannel = Map.of("channel", channel);
    long decided = ledger.height() - 1;
    assertThat(value(m, "ledger_blockchain_height", onChannel)).isEqualTo((double) ledger.height());
    // Every envelope was answered SUCCESS, or SERVICE_UNAVAILABLE when this node's copy came in
    // after the other replicas had already ordered it (the request is then a duplicate).
    assertThat(
            value(
                    m,
                    "broadcast_processed_count",
                    Map.of("channel", channel, "type", TX, "status", "SUCCESS"))
                + value(
                    m,
                    "broadcast_processed_count",
                    Map.of("channel", channel, "type", TX, "status", "SERVICE_UNAVAILABLE")))
        .isEqualTo((double) submitted);
    assertThat(value(m, "broadcast_enqueue_duration_count", Map.of("channel", channel)))
        .isEqualTo((double) submitted);
    assertThat(value(m, "deliver_blocks_sent", onChannel)).isEqualTo((double) blocksSent);
    // The load generator's Deliver calls (the newest block, then following) have all ended.
    assertThat(value(m, "deliver_streams_closed", Map.of()))
        .isEqualTo(value(m, "deliver_streams_opened", Map.of()))
        .isEqualTo(blocksSent > 0 ? 2 : 0);
    assertThat(value(m, "deliver_requests_completed", Map.of("success", "true")))
        .isEqualTo(blocksSent > 0 ? 1 : 0);
    assertThat(value(m, "consensus_smartbft_latest_decided_sequence", onChannel))
        .isEqualTo((double) decided);
    assertThat(value(m, "consensus_smartbft_view_count_batch_all", onChannel))
        .isEqualTo((double) decided);
    assertThat(value(m, "consensus_smartbft_view_count_txs_all", onChannel))
        .isEqualTo((double) submitted);
    assertThat(value(m, "consensus_smartbft_batch_size_count", onChannel))
        .isEqualTo((double) decided);
    assertThat(value(m, "consensus_smartbft_batch_size_sum", onChannel))
        .isEqualTo((double) submitted);
    assertThat(value(m, "consensus_smartbft_pool_count_of_elements", onChannel)).isZero();
    assertThat(value(m, "consensus_BFT_committed_block_number", onChannel))
        .isEqualTo((double) decided);
    assertThat(value(m, "consensus_BFT_cluster_size", onChannel)).isEqualTo(nodes.size());
    assertThat(value(m, "ledger_blockstorage_commit_time_count", onChannel))
        .isGreaterThanOrEqualTo((double) decided);
    Map<String, String> broadcastCalls =
        Map.of("service", "orderer_AtomicBroadcast", "method", "Broadcast");
    assertThat(value(m, "grpc_server_stream_requests_received", broadcastCalls)).isPositive();
    assertThat(value(m, "grpc_server_stream_messages_received", broadcastCalls))
        .isGreaterThanOrEqualTo((double) submitted);
    assertThat(peersWithFrames(m, "cluster_net_frames_sent_total", "out"))
        .hasSize(nodes.size() - 1);
    assertThat(peersWithFrames(m, "cluster_net_frames_received_total", "in"))
        .hasSize(nodes.size() - 1);
  }

  private static Set<String> peersWithFrames(
      Map<String, PrometheusText.Family> metrics, String name, String direction) {
    PrometheusText.Family family = metrics.get(name);
    if (family == null) {
      return Set.of();
    }
    return family.samples().stream()
        .filter(s -> s.labels().get("direction").equals(direction) && s.value() > 0)
        .map(s -> s.labels().get("peer"))
        .collect(Collectors.toSet());
  }

  private static Map<String, PrometheusText.Family> awaitScrape(
      OrdererNode node, Predicate<Map<String, PrometheusText.Family>> settled)
      throws IOException, InterruptedException {
    return MetricsScrape.await(node, settled, Duration.ofSeconds(30));
  }
}
