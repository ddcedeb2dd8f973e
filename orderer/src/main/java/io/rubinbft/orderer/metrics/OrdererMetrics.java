package io.rubinbft.orderer.metrics;

import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.rubinbft.ledger.CommitObserver;
import io.rubinbft.orderer.cluster.ClusterStats;
import io.rubinbft.orderer.cluster.NetworkTraffic;
import io.rubinbft.orderer.consensus.ReplicaProgress;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * All of a node's metrics in one registry (served at the operations endpoint's {@code /metrics},
 * written by {@link FabricExposition}): the JVM's, the gRPC server's, Broadcast's and Deliver's,
 * the ledger's commits, and those of every joined channel (participation, ledger, block pulling),
 * every channel replica and the replica network, which are read from their owners at scrape time.
 */
public final class OrdererMetrics {

  /** Fabric's buckets for ledger_blockstorage_commit_time, in seconds. */
  private static final double[] COMMIT_BUCKETS = {0.005, 0.01, 0.015, 0.05, 0.1, 1, 10};

  private static final double NANOS_PER_SECOND = 1e9;

  private final PrometheusRegistry registry;
  private final BroadcastMetrics broadcast;
  private final DeliverMetrics deliver;
  private final ChannelMetrics channels;
  private final GrpcServerMetrics grpc;
  private final Histogram commitTime;

  private OrdererMetrics(
      PrometheusRegistry registry,
      BroadcastMetrics broadcast,
      DeliverMetrics deliver,
      ChannelMetrics channels) {
    this.registry = registry;
    this.broadcast = broadcast;
    this.deliver = deliver;
    this.channels = channels;
    this.grpc = new GrpcServerMetrics(registry);
    this.commitTime =
        Histogram.builder()
            .name("ledger_blockstorage_commit_time")
            .help("Time taken in seconds for committing the block to storage.")
            .labelNames("channel")
            .classicOnly()
            .classicUpperBounds(COMMIT_BUCKETS)
            .register(registry);
  }

  /**
   * Registers every metric in a new registry.
   *
   * @param joined every joined channel, read at each scrape
   * @param channels the channels with a running replica, read at each scrape
   * @param cluster the cluster layer's counters, read at each scrape
   * @param traffic rdma-net's counters, read at each scrape
   * @param version this build's version, Fabric's {@code fabric_version} label
   */
  public static OrdererMetrics register(
      Supplier<List<ParticipationView>> joined,
      Supplier<List<ChannelView>> channels,
      Supplier<ClusterStats> cluster,
      Supplier<Optional<NetworkTraffic>> traffic,
      String version) {
    PrometheusRegistry registry = new PrometheusRegistry();
    JvmMetrics.builder().register(registry);
    Gauge.builder()
        .name("fabric_version")
        .help("The active version of Fabric.")
        .labelNames("version")
        .register(registry)
        .labelValues(version)
        .set(1);
    OrdererMetrics metrics =
        new OrdererMetrics(
            registry,
            new BroadcastMetrics(registry),
            new DeliverMetrics(registry),
            new ChannelMetrics(registry, channels));
    new ParticipationMetrics(registry, joined);
    new NetworkMetrics(registry, cluster, traffic);
    return metrics;
  }

  public PrometheusRegistry registry() {
    return registry;
  }

  public BroadcastMetrics broadcast() {
    return broadcast;
  }

  public DeliverMetrics deliver() {
    return deliver;
  }

  /** Fabric's grpc_server_* metrics; its interceptor wraps the Broadcast/Deliver service. */
  public GrpcServerMetrics grpc() {
    return grpc;
  }

  /** Where the block store reports each append's commit time. */
  public CommitObserver ledgerCommits() {
    return (channel, nanos) -> commitTime.labelValues(channel).observe(nanos / NANOS_PER_SECOND);
  }

  /**
   * Registers {@code orderer_channels_heap_shortfall_bytes}, read from {@code shortfall} at each
   * scrape: how much more heap the node's channels need at their worst than it has (0 when they
   * fit; orderer/docs/MEMORY.md "Sizing").
   */
  public void channelsHeapShortfall(LongSupplier shortfall) {
    GaugeWithCallback.builder()
        .name("orderer_channels_heap_shortfall_bytes")
        .help(
            "Bytes of heap the channels this node serves need at their worst beyond the heap it"
                + " has; 0 when they fit.")
        .callback(callback -> callback.call((double) shortfall.getAsLong()))
        .register(registry);
  }

  /**
   * Registers the Deliver bytes budget's gauges and give-way counts ({@code orderer_deliver_*}),
   * read from {@code budget} at each scrape.
   */
  public void deliverBudget(DeliverBudgetMetrics.Readings budget) {
    DeliverBudgetMetrics.register(registry, budget);
  }

  /** Where channel {@code channel}'s replica reports its decided batches. */
  public ReplicaProgress.DecisionListener decisions(String channel) {
    return channels.decisions(channel);
  }
}
