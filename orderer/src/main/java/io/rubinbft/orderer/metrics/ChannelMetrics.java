package io.rubinbft.orderer.metrics;

import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.rubinbft.orderer.consensus.ReplicaProgress;
import java.util.List;
import java.util.function.Supplier;

/**
 * Per-channel ledger and consensus metrics, labelled {@code channel}. Names follow Fabric's ledger
 * and SmartBFT (consensus_smartbft_*) metrics where the meaning matches; the rest carry the same
 * prefix so one family holds everything about a channel's consensus.
 */
final class ChannelMetrics {

  private static final double[] BATCH_SIZE_BUCKETS = {
    1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000
  };

  /** Up to a minute: a decision that waits for a view change takes tens of seconds. */
  private static final double[] DECISION_BUCKETS = {
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60
  };

  private static final double NANOS_PER_SECOND = 1e9;

  private final Supplier<List<ChannelView>> channels;
  private final PrometheusRegistry registry;
  private final PerChannel<ChannelView> perChannel;
  private final Histogram batchSize;
  private final Histogram batchLatency;

  ChannelMetrics(PrometheusRegistry registry, Supplier<List<ChannelView>> channels) {
    this.registry = registry;
    this.channels = channels;
    this.perChannel = new PerChannel<>(registry, channels, ChannelView::channel);
    gauges();
    fabricBftGauges();
    counters();
    droppedByReason();
    forwardedReceived();
    batchSize =
        Histogram.builder()
            .name("consensus_smartbft_batch_size")
            .help("Requests per decided batch.")
            .labelNames("channel")
            .classicOnly()
            .classicUpperBounds(BATCH_SIZE_BUCKETS)
            .register(registry);
    batchLatency =
        Histogram.builder()
            .name("consensus_smartbft_view_latency_batch_processing")
            .help("Seconds from accepting a proposal to its decision on this replica.")
            .labelNames("channel")
            .classicOnly()
            .classicUpperBounds(DECISION_BUCKETS)
            .register(registry);
  }

  /** Where channel {@code channel}'s replica reports its decisions. */
  ReplicaProgress.DecisionListener decisions(String channel) {
    var size = batchSize.labelValues(channel);
    var latency = batchLatency.labelValues(channel);
    return (requests, latencyNanos) -> {
      size.observe(requests);
      latencyNanos.ifPresent(nanos -> latency.observe(nanos / NANOS_PER_SECOND));
    };
  }

  /** Fabric's own BFT chain metrics (orderer/consensus/smartbft), beside SmartBFT's. */
  private void fabricBftGauges() {
    perChannel.gauge(
        "consensus_BFT_cluster_size", "Number of nodes in this channel.", ChannelView::clusterSize);
    perChannel.gauge(
        "consensus_BFT_committed_block_number",
        "The number of the latest committed block.",
        c -> c.status().lastDelivered());
    perChannel.gauge(
        "consensus_BFT_is_leader",
        "The leadership status of the current node: 1 if it is the leader else 0.",
        c -> c.leader() ? 1 : 0);
    perChannel.gauge(
        "consensus_BFT_leader_id", "The id of the current leader.", ChannelView::leaderId);
  }

  private void gauges() {
    perChannel.gauge(
        "consensus_smartbft_view_number", "Number of the current view.", c -> c.status().view());
    perChannel.gauge(
        "consensus_smartbft_cluster_size",
        "Consenters of the channel's current consensus epoch.",
        ChannelView::clusterSize);
    perChannel.gauge(
        "consensus_epoch",
        "The consensus epoch: number of the config block that set the running consenter set.",
        ChannelView::epoch);
    perChannel.gauge(
        "consensus_is_consenter",
        "1 while this node is a consenter of the channel's epoch, 0 once it follows the channel.",
        c -> c.member() ? 1 : 0);
    perChannel.gauge(
        "consensus_smartbft_view_leader_id",
        "Consenter id of the primary (leader) of the current view.",
        ChannelView::leaderId);
    perChannel.gauge(
        "consensus_smartbft_view_proposal_sequence",
        "Highest sequence this replica accepted a proposal for.",
        c -> c.progress().lastAccepted());
    perChannel.gauge(
        "consensus_smartbft_pool_count_of_elements",
        "Requests waiting in the replica's request pool.",
        c -> c.status().pendingRequests());
    perChannel.gauge(
        "consensus_smartbft_view_installed",
        "1 while the replica works in its view, 0 while it is changing views.",
        c -> c.status().viewInstalled() ? 1 : 0);
    perChannel.gauge(
        "consensus_smartbft_latest_decided_sequence",
        "Highest sequence decided and handed to the ledger.",
        c -> c.status().lastDelivered());
    perChannel.gauge(
        "consensus_smartbft_proposals_in_flight",
        "Proposals accepted but not yet decided on this replica.",
        c -> Math.max(0, c.progress().lastAccepted() - c.status().lastDelivered()));
    perChannel.gauge(
        "consensus_smartbft_watermark_low",
        "The stable checkpoint h (low watermark).",
        c -> c.status().lowWatermark());
    perChannel.gauge(
        "consensus_smartbft_watermark_high",
        "The high watermark h + L: no proposal beyond it is accepted.",
        c -> c.status().highWatermark());
  }

  private void counters() {
    perChannel.counter(
        "consensus_smartbft_view_changes",
        "New views this replica installed since the node started.",
        c -> c.progress().viewChanges());
    perChannel.counter(
        "consensus_smartbft_view_count_batch_all",
        "Batches decided since the node started.",
        c -> c.progress().decidedBatches());
    perChannel.counter(
        "consensus_smartbft_view_count_txs_all",
        "Requests (transactions) in the batches decided since the node started.",
        c -> c.progress().decidedRequests());
    perChannel.counter(
        "consensus_smartbft_peer_messages_dropped",
        "Consensus messages from peers dropped before the replica saw them (another epoch's,"
            + " a non-member's, undecodable, or the replica's queue full).",
        ChannelView::droppedPeerMessages);
    perChannel.counter(
        "consensus_smartbft_requests_forwarded_to_leader",
        "Client envelopes this backup forwarded to the primary, still pending after the channel's"
            + " request_forward_timeout.",
        c -> c.forwards().toPrimary());
    perChannel.counter(
        "consensus_smartbft_requests_forwarded_to_all",
        "Client envelopes this backup forwarded to every other consenter, still pending a second"
            + " request_forward_timeout after it sent them to the primary.",
        c -> c.forwards().toAll());
  }

  private void forwardedReceived() {
    CounterWithCallback.builder()
        .name("consensus_smartbft_forwarded_requests_received")
        .help(
            "Envelopes other consenters forwarded to this node, by outcome: admitted (checked and"
                + " offered to the pool, duplicates included), invalid (failed the backup's check),"
                + " not_a_member, over_budget, queue_full.")
        .labelNames("channel", "outcome")
        .callback(
            callback ->
                channels
                    .get()
                    .forEach(
                        c ->
                            c.forwards()
                                .receivedByLabel()
                                .forEach(
                                    (outcome, count) ->
                                        callback.call(count, c.channel(), outcome))))
        .register(registry);
  }

  private void droppedByReason() {
    CounterWithCallback.builder()
        .name("consensus_smartbft_messages_dropped")
        .help(
            "Consensus messages dropped at the replica's boundary by reason: the host's"
                + " (older_epoch, newer_epoch, not_a_member, undecodable, queue_full) and"
                + " bft-core's.")
        .labelNames("channel", "reason")
        .callback(
            callback ->
                channels
                    .get()
                    .forEach(
                        c -> {
                          c.hostDrops()
                              .forEach(
                                  (reason, count) -> callback.call(count, c.channel(), reason));
                          c.status()
                              .drops()
                              .forEach(
                                  (reason, count) -> callback.call(count, c.channel(), reason));
                        }))
        .register(registry);
  }
}
