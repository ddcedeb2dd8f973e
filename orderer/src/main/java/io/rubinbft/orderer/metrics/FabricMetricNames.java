package io.rubinbft.orderer.metrics;

import java.util.Set;

/**
 * The counters this orderer exports under Fabric's names, which {@link FabricExposition} serves as
 * Fabric does: without a {@code _total} suffix. (Gauges and histograms need no such care.) The
 * docs' orderer/docs/METRICS.md marks every metric with Fabric's name; a test compares them, TYPE
 * and labels, with an exposition captured from Fabric v3.1.5's orderer.
 */
final class FabricMetricNames {

  static final Set<String> COUNTERS =
      Set.of(
          "broadcast_processed_count",
          "deliver_streams_opened",
          "deliver_streams_closed",
          "deliver_requests_received",
          "deliver_requests_completed",
          "deliver_blocks_sent",
          "consensus_smartbft_view_count_batch_all",
          "consensus_smartbft_view_count_txs_all",
          "grpc_server_stream_requests_received",
          "grpc_server_stream_requests_completed",
          "grpc_server_stream_messages_received",
          "grpc_server_stream_messages_sent");

  private FabricMetricNames() {}
}
