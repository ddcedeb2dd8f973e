package io.rubinbft.orderer.node;

import io.rubinbft.bft.ReplicaStatus;
import io.rubinbft.orderer.metrics.ChannelView;
import java.util.List;

/** The served channels as the metrics read them at each scrape. */
final class ChannelViews {

  private ChannelViews() {}

  static List<ChannelView> of(ChannelRegistry registry) {
    return registry.channelNames().stream()
        .flatMap(name -> registry.runtime(name).stream())
        .map(ChannelViews::view)
        .toList();
  }

  private static ChannelView view(ChannelRuntime channel) {
    ReplicaStatus status = channel.host().status();
    // Replica indexes are positions in the consenter mapping, which is sorted by consenter id.
    long leaderId = channel.config().consenters().consenters().get(status.primary()).id();
    return new ChannelView(
        channel.config().channelId(),
        channel.ledger().height(),
        status,
        leaderId,
        channel.host().progress(),
        channel.host().droppedPeerMessages());
  }
}
