package io.rubinbft.orderer.node;

import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.rubinbft.bft.ReplicaStatus;
import java.util.function.ToLongBiFunction;

/**
 * Who leads each channel's replica set, under the names Fabric's BFT orderer exports (SmartBFT's
 * view metrics), so operators and the end-to-end tests can find the leader without reading logs.
 * Values come from each replica's last status at scrape time.
 */
final class ConsensusGauges {

  private ConsensusGauges() {}

  static void register(PrometheusRegistry registry, ChannelRegistry channels) {
    gauge(
        registry,
        channels,
        "consensus_smartbft_view_leader_id",
        "The consenter id of the channel's leader (during a view change: of the next view's)",
        (runtime, status) -> runtime.config().consenters().consenters().get(status.primary()).id());
    gauge(
        registry,
        channels,
        "consensus_smartbft_view_number",
        "The channel's current PBFT view",
        (runtime, status) -> status.view());
  }

  private static void gauge(
      PrometheusRegistry registry,
      ChannelRegistry channels,
      String name,
      String help,
      ToLongBiFunction<ChannelRuntime, ReplicaStatus> value) {
    GaugeWithCallback.builder()
        .name(name)
        .help(help)
        .labelNames("channel")
        .callback(
            gauge -> {
              for (String channel : channels.channelNames()) {
                channels
                    .runtime(channel)
                    .ifPresent(
                        runtime ->
                            gauge.call(
                                value.applyAsLong(runtime, runtime.host().status()), channel));
              }
            })
        .register(registry);
  }
}
