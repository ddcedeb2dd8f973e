package io.rubinbft.orderer.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.net.ChannelState;
import io.rubinbft.net.ChannelStats;
import io.rubinbft.net.DropReason;
import io.rubinbft.net.SelectorStats;
import io.rubinbft.orderer.cluster.ClusterStats;
import io.rubinbft.orderer.cluster.NetworkTraffic;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** rdma-net's counters as the node exports them: per peer and direction, summed per peer. */
class NetworkMetricsTest {

  private static final InetSocketAddress DIALED = new InetSocketAddress("127.0.0.1", 7151);

  @Test
  void exportsPerPeerCountersByCertificateNameAndDirection() throws IOException {
    // Two outbound channels to one peer (a reconnect in progress), one inbound, one
    // unauthenticated.
    NetworkTraffic traffic =
        new NetworkTraffic(
            new SelectorStats(
                "tcp",
                5,
                2,
                1,
                1,
                0,
                0,
                0,
                Map.of(DropReason.BAD_MAC, 3L),
                List.of(
                    channel(DIALED, "CN=orderer1.example.com,OU=orderer,O=Org", 10, 100, 50),
                    channel(DIALED, "CN=orderer1.example.com,OU=orderer,O=Org", 5, 0, 60),
                    channel(
                        new InetSocketAddress("127.0.0.1", 40000),
                        "CN=orderer1.example.com,OU=orderer,O=Org",
                        7,
                        0,
                        0),
                    channel(new InetSocketAddress("127.0.0.1", 40001), "", 1, 0, 0))),
            Set.of(DIALED));
    OrdererMetrics metrics =
        OrdererMetrics.register(
            List::of,
            List::of,
            () -> new ClusterStats(1, 20, 30, 4, 0, 0, 0, 0, 0, 0),
            () -> Optional.of(traffic),
            "test");

    Map<String, PrometheusText.Family> scraped = PrometheusText.parse(MetricsScrape.text(metrics));

    PrometheusText.Family frames = scraped.get("cluster_net_frames_sent_total");
    assertThat(frames.value("cluster_net_frames_sent_total", Map.of("direction", "out")))
        .contains(15.0);
    assertThat(
            frames.value(
                "cluster_net_frames_sent_total",
                Map.of("peer", "orderer1.example.com", "direction", "in")))
        .contains(7.0);
    assertThat(frames.value("cluster_net_frames_sent_total", Map.of("peer", "127.0.0.1:40001")))
        .contains(1.0);
    assertThat(
            scraped
                .get("cluster_net_send_credits")
                .value("cluster_net_send_credits", Map.of("direction", "out")))
        .contains(100.0);
    assertThat(
            scraped
                .get("cluster_net_frames_dropped_total")
                .value("cluster_net_frames_dropped_total", Map.of("reason", "bad_mac")))
        .contains(3.0);
    assertThat(
            scraped
                .get("cluster_net_reconnects_total")
                .value("cluster_net_reconnects_total", Map.of("transport", "tcp")))
        .contains(2.0);
    assertThat(
            scraped
                .get("cluster_messages_dropped_total")
                .value("cluster_messages_dropped_total", Map.of("reason", "send_queue_full")))
        .contains(4.0);
  }

  /** A channel that sent {@code frames} frames and was granted {@code credit} + its own slots. */
  private static ChannelStats channel(
      InetSocketAddress remote, String peer, long frames, long credit, long backPressured) {
    return new ChannelStats(
        remote,
        peer,
        ChannelState.OPEN,
        frames,
        0,
        frames,
        frames * 100,
        0,
        0,
        0,
        backPressured,
        frames,
        frames + credit,
        0,
        0,
        0,
        Map.of());
  }
}
