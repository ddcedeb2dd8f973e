package io.rubinbft.orderer.metrics;

import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * Metrics of every joined channel, consenter or not: Fabric's channel participation gauges ({@code
 * participation_status}, {@code participation_consensus_relation}, Fabric's values), the ledger
 * height, and the block puller's counters of followers, onboardings and catch-ups ({@code
 * blockpull_*}, labelled {@code channel}).
 */
final class ParticipationMetrics {

  private final PrometheusRegistry registry;
  private final Supplier<List<ParticipationView>> channels;

  ParticipationMetrics(PrometheusRegistry registry, Supplier<List<ParticipationView>> channels) {
    this.registry = registry;
    this.channels = channels;
    PerChannel<ParticipationView> perChannel =
        new PerChannel<>(registry, channels, ParticipationView::channel);
    perChannel.gauge(
        "ledger_blockchain_height", "Height of the chain in blocks.", c -> c.ledgerHeight());
    perChannel.gauge(
        "participation_status",
        "The channel participation status of the node: 0 if inactive, 1 if active, 2 if"
            + " onboarding, 3 if failed.",
        c -> c.status().fabricValue());
    perChannel.gauge(
        "participation_consensus_relation",
        "The channel participation consensus relation of the node: 0 if other, 1 if consenter, 2"
            + " if follower, 3 if config-tracker.",
        c -> c.relation().fabricValue());
    pulling();
  }

  private void pulling() {
    GaugeWithCallback.builder()
        .name("blockpull_source")
        .help("1 for the orderer (label source, host:port) blocks are being pulled from.")
        .labelNames("channel", "source")
        .callback(
            callback ->
                eachPuller(
                    (channel, p) ->
                        p.source().ifPresent(source -> callback.call(1, channel, source))))
        .register(registry);
    CounterWithCallback.builder()
        .name("blockpull_blocks_pulled")
        .help("Blocks pulled from other orderers, checked and kept, since the puller started.")
        .labelNames("channel")
        .callback(
            callback ->
                eachPuller((channel, p) -> callback.call((double) p.blocksPulled(), channel)))
        .register(registry);
    CounterWithCallback.builder()
        .name("blockpull_blocks_refused")
        .help(
            "Pulled blocks discarded, by the check they failed: out_of_order, signatures,"
                + " last_config, config, chain.")
        .labelNames("channel", "reason")
        .callback(
            callback ->
                eachPuller(
                    (channel, p) ->
                        p.refusedByReason()
                            .forEach((reason, count) -> callback.call(count, channel, reason))))
        .register(registry);
    GaugeWithCallback.builder()
        .name("blockpull_sources_distrusted")
        .help(
            "Sources distrusted: they did not serve a height they claimed, or sent a block that"
                + " failed its checks.")
        .labelNames("channel")
        .callback(
            callback -> eachPuller((channel, p) -> callback.call(p.distrustedSources(), channel)))
        .register(registry);
  }

  /** Calls {@code read} with each channel that pulls its blocks and its puller's counters. */
  private void eachPuller(BiConsumer<String, ParticipationView.Pulling> read) {
    channels.get().forEach(c -> c.pulling().ifPresent(p -> read.accept(c.channel(), p)));
  }
}
