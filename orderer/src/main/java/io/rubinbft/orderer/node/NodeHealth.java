package io.rubinbft.orderer.node;

import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.orderer.cluster.ClusterNetwork;
import io.rubinbft.orderer.consensus.ReplicaHost;
import io.rubinbft.orderer.node.ChannelFailure.Check;
import io.rubinbft.orderer.operations.HealthChecks;
import io.rubinbft.orderer.operations.QuorumConnectivity;
import io.rubinbft.orderer.operations.QuorumConnectivity.ChannelPeers;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The node's {@code /healthz} checks, each naming the failing channel: "ledger" (the channel's
 * ledger writer stopped, or its block store cannot be read), "consensus" (the channel's replica
 * stopped), "channels" (the node stopped following, onboarding or serving the channel), and
 * "cluster" (the network thread stopped, or a channel lacks a quorum's connections for longer than
 * {@link #CONNECTIVITY_GRACE}). Every channel the participation API reports "failed" fails one of
 * the first three: both read {@link ChannelRegistry#failure}.
 */
final class NodeHealth {

  /**
   * How long a channel may lack a quorum's connections before the node reports unhealthy: long
   * enough that start-up (peers are dialed on the first status round, and may still be starting)
   * and a peer's restart do not flap the probes, short enough that a node cut off from its peers is
   * noticed within a minute.
   */
  static final Duration CONNECTIVITY_GRACE = Duration.ofSeconds(30);

  private NodeHealth() {}

  static HealthChecks of(ChannelRegistry channels, ClusterNetwork network, InstantSource clock) {
    HealthChecks health = new HealthChecks();
    health.register(
        Check.LEDGER.component(),
        () ->
            failures(
                channels,
                name ->
                    channels
                        .channel(name)
                        .flatMap(
                            served ->
                                ledgerFailure(
                                    served.ledger(), reportedBy(channels, name, Check.LEDGER)))));
    health.register(
        Check.CONSENSUS.component(),
        () -> failures(channels, name -> reportedBy(channels, name, Check.CONSENSUS)));
    health.register(
        Check.CHANNELS.component(),
        () -> failures(channels, name -> reportedBy(channels, name, Check.CHANNELS)));
    QuorumConnectivity connectivity =
        new QuorumConnectivity(
            () -> peers(channels, network.connectedAddresses()), clock, CONNECTIVITY_GRACE);
    health.register("cluster", () -> network.failure().or(connectivity::failure));
    return health;
  }

  /**
   * Why {@code ledger} cannot take or serve blocks: its writer stopped ({@code writerFailure}), or
   * reading its first block fails (the store is closed, the block missing or corrupt). Block 0 is
   * read because a served channel always has it and it is small, so the probe stays cheap however
   * large the newest blocks are.
   */
  static Optional<String> ledgerFailure(ChannelLedger ledger, Optional<String> writerFailure) {
    if (writerFailure.isPresent()) {
      return writerFailure;
    }
    try {
      ledger.block(0);
      return Optional.empty();
    } catch (RuntimeException e) {
      return Optional.of("block store cannot be read: " + e.getMessage());
    }
  }

  /** Why channel {@code name} failed for good, if it did and {@code check} reports it. */
  private static Optional<String> reportedBy(ChannelRegistry channels, String name, Check check) {
    return channels.failure(name).filter(f -> f.check() == check).map(ChannelFailure::reason);
  }

  /** Every failing channel's reason, joined; empty when none fails. */
  private static Optional<String> failures(
      ChannelRegistry channels, Function<String, Optional<String>> check) {
    return channels.channelNames().stream()
        .flatMap(
            name -> check.apply(name).stream().map(reason -> "channel '" + name + "': " + reason))
        .reduce((a, b) -> a + "; " + b);
  }

  private static List<ChannelPeers> peers(
      ChannelRegistry channels, Set<InetSocketAddress> connected) {
    return channels.channelNames().stream()
        .flatMap(
            name ->
                channels.runtime(name).stream()
                    .filter(ChannelRuntime::consenter)
                    .map(c -> channelPeers(name, c.host().orElseThrow(), connected)))
        .toList();
  }

  private static ChannelPeers channelPeers(
      String name, ReplicaHost host, Set<InetSocketAddress> connected) {
    return new ChannelPeers(name, host.consenters(), host.connectedPeers(connected));
  }
}
