package io.rubinbft.orderer.operations;

import io.rubinbft.bft.Quorums;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The cluster connectivity check: fails while, for some channel, this node has been connected to
 * fewer of the channel's other consenters than a quorum needs (the quorum counts this node too) for
 * longer than a grace period. Within the grace a node still counts as healthy, so that start-up
 * (peers are dialed on the first status round) and a peer's restart do not flap the check. A
 * shortfall counts from the first poll that sees it: probes poll every few seconds, well within the
 * grace. Thread-safe: the operations server may poll it from several threads at once.
 */
public final class QuorumConnectivity implements HealthCheck {

  /**
   * One channel as seen from this node.
   *
   * @param consenters the channel's consenters, this node included
   * @param connectedPeers how many of the other consenters this node has an open connection to
   */
  public record ChannelPeers(String channel, int consenters, int connectedPeers) {

    /** Peers a quorum needs besides this node. */
    int quorumPeers() {
      return new Quorums(consenters).quorum() - 1;
    }

    boolean lacksQuorum() {
      return connectedPeers < quorumPeers();
    }
  }

  private final Supplier<List<ChannelPeers>> channels;
  private final InstantSource clock;
  private final Duration grace;
  private final Map<String, Instant> shortSince = new HashMap<>();

  /**
   * @param channels every served channel's connectivity now (called on each poll: keep it cheap)
   * @param grace how long a channel may lack a quorum's connections before the check fails
   */
  public QuorumConnectivity(
      Supplier<List<ChannelPeers>> channels, InstantSource clock, Duration grace) {
    this.channels = channels;
    this.clock = clock;
    this.grace = grace;
  }

  @Override
  public synchronized Optional<String> failure() {
    Instant now = clock.instant();
    List<ChannelPeers> current = channels.get();
    Set<String> shortNow =
        current.stream()
            .filter(ChannelPeers::lacksQuorum)
            .map(ChannelPeers::channel)
            .collect(Collectors.toSet());
    // A channel that regained its quorum (or is no longer served) starts its grace afresh.
    shortSince.keySet().retainAll(shortNow);
    shortNow.forEach(channel -> shortSince.putIfAbsent(channel, now));
    return current.stream()
        // A channel lacking its quorum is in shortNow, so it has its start in shortSince.
        .filter(
            peers ->
                peers.lacksQuorum()
                    && isPastGrace(Objects.requireNonNull(shortSince.get(peers.channel())), now))
        .map(QuorumConnectivity::describe)
        .reduce((a, b) -> a + "; " + b);
  }

  private boolean isPastGrace(Instant since, Instant now) {
    return Duration.between(since, now).compareTo(grace) > 0;
  }

  private static String describe(ChannelPeers peers) {
    return String.format(
        "channel '%s': connected to %d of %d consenters, a quorum needs %d",
        peers.channel(), peers.connectedPeers(), peers.consenters() - 1, peers.quorumPeers());
  }
}
