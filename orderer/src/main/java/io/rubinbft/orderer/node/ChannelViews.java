package io.rubinbft.orderer.node;

import io.rubinbft.orderer.config.HostPort;
import io.rubinbft.orderer.consensus.ReplicaHost;
import io.rubinbft.orderer.metrics.ChannelView;
import io.rubinbft.orderer.metrics.ParticipationView;
import io.rubinbft.orderer.onboarding.PullStats;
import io.rubinbft.orderer.participation.ChannelInfo;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** The joined channels as the metrics read them at each scrape. */
final class ChannelViews {

  private ChannelViews() {}

  /** The channels with a running replica. */
  static List<ChannelView> of(ChannelRegistry registry) {
    return registry.snapshot().entries().values().stream()
        .flatMap(entry -> entry.runtime().stream())
        .flatMap(channel -> channel.host().map(host -> view(channel, host)).stream())
        .toList();
  }

  /** Every joined channel, with its block puller's counters when it pulls. */
  static List<ParticipationView> participation(ChannelRegistry registry) {
    return registry.snapshot().entries().entrySet().stream()
        .flatMap(
            channel ->
                channel.getValue().info(channel.getKey()).stream()
                    .map(info -> participation(channel.getValue(), info)))
        .toList();
  }

  private static ParticipationView participation(ChannelEntry entry, ChannelInfo info) {
    return new ParticipationView(
        info.name(),
        ParticipationView.Relation.valueOf(info.consensusRelation().toUpperCase(Locale.ROOT)),
        ParticipationView.Status.valueOf(info.status().toUpperCase(Locale.ROOT)),
        info.height(),
        entry.pullStats().map(ChannelViews::pulling));
  }

  private static ParticipationView.Pulling pulling(PullStats stats) {
    Map<String, Long> refused =
        stats.refusals().entrySet().stream()
            .collect(Collectors.toMap(e -> e.getKey().label(), Map.Entry::getValue));
    return new ParticipationView.Pulling(
        stats.source().map(HostPort::toString),
        stats.blocksPulled(),
        refused,
        stats.distrustedSources());
  }

  private static ChannelView view(ChannelRuntime channel, ReplicaHost host) {
    return new ChannelView(
        channel.config().channelId(),
        host.status(),
        host.leaderId(),
        host.member() && host.leaderId() == host.epoch().consenterId(host.epoch().self()),
        host.progress(),
        host.drops().total(),
        host.drops().byLabel(),
        host.epoch().epoch(),
        host.consenters(),
        host.member(),
        host.forwards());
  }
}
