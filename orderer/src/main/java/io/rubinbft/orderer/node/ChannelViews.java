package io.rubinbft.orderer.node;

import io.rubinbft.orderer.consensus.ReplicaHost;
import io.rubinbft.orderer.metrics.ChannelView;
import java.util.List;

/** The served channels as the metrics read them at each scrape. */
final class ChannelViews {

  private ChannelViews() {}

  static List<ChannelView> of(ChannelRegistry registry) {
    return registry.channelNames().stream()
        .flatMap(name -> registry.runtime(name).stream())
        .flatMap(channel -> channel.host().map(host -> view(channel, host)).stream())
        .toList();
  }

  private static ChannelView view(ChannelRuntime channel, ReplicaHost host) {
    return new ChannelView(
        channel.config().channelId(),
        channel.ledger().height(),
        host.status(),
        host.leaderId(),
        host.progress(),
        host.drops().total(),
        host.drops().byLabel(),
        host.epoch().epoch(),
        host.consenters(),
        host.member(),
        host.forwards());
  }
}
