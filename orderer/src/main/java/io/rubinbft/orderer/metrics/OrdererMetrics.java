package io.rubinbft.orderer.metrics;

import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.rubinbft.orderer.cluster.ClusterStats;
import io.rubinbft.orderer.cluster.NetworkTraffic;
import io.rubinbft.orderer.consensus.ReplicaProgress;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * All of a node's metrics in one registry (served at the operations endpoint's {@code /metrics}):
 * the JVM's, Broadcast's and Deliver's, and those of every joined channel (participation, ledger,
 * block pulling), every channel replica and the replica network, which are read from their owners
 * at scrape time.
 */
public final class OrdererMetrics {

  private final PrometheusRegistry registry;
  private final BroadcastMetrics broadcast;
  private final DeliverMetrics deliver;
  private final ChannelMetrics channels;

  private OrdererMetrics(
      PrometheusRegistry registry,
      BroadcastMetrics broadcast,
      DeliverMetrics deliver,
      ChannelMetrics channels) {
    this.registry = registry;
    this.broadcast = broadcast;
    this.deliver = deliver;
    this.channels = channels;
  }

  /**
   * Registers every metric in a new registry.
   *
   * @param joined every joined channel, read at each scrape
   * @param channels the channels with a running replica, read at each scrape
   * @param cluster the cluster layer's counters, read at each scrape
   * @param traffic rdma-net's counters, read at each scrape
   */
  public static OrdererMetrics register(
      Supplier<List<ParticipationView>> joined,
      Supplier<List<ChannelView>> channels,
      Supplier<ClusterStats> cluster,
      Supplier<Optional<NetworkTraffic>> traffic) {
    PrometheusRegistry registry = new PrometheusRegistry();
    JvmMetrics.builder().register(registry);
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

  /** Where channel {@code channel}'s replica reports its decided batches. */
  public ReplicaProgress.DecisionListener decisions(String channel) {
    return channels.decisions(channel);
  }
}
