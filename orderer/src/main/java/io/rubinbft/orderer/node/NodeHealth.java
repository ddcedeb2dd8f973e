package io.rubinbft.orderer.node;

import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.orderer.broadcast.BroadcastThrottle;
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
 * stopped), "channels" (the node stopped following, onboarding or serving the channel), "cluster"
 * (the network thread stopped, or a channel lacks a quorum's connections for longer than {@link
 * #CONNECTIVITY_GRACE}) and "broadcast" (the Broadcast throttle's refills stopped). Every channel
 * the participation API reports "failed" fails one of the first three: both read {@link
 * ChannelEntry#failure} of one {@link ChannelSnapshot}.
 *
 * <p>Where each {@link io.rubinbft.orderer.concurrent.Worker}'s failure shows
 * (orderer/docs/HEALTH.md, "Which worker reports where"): the node's own workers fail a check the
 * probes keep, since the node is of no use without them and a restart starts them again (the
 * cluster network: "cluster"; the Broadcast throttle, without whose refills every throttled client
 * waits for ever: "broadcast"). A channel's workers fail its participation status ("failed") and
 * one check: the replica and every worker it needs, which join its {@link
 * io.rubinbft.orderer.concurrent.WorkerGroup} (ledger writer, archive reader, envelope forwarding)
 * and stop the replica when one fails, "consensus", which the probes keep and the node clears by
 * restarting the channel; a follower's pulling and an onboarding, "channels", which the probes
 * leave out, as a restart would only retry that channel. A catch-up task's failure fails nothing:
 * the channel is served again as it is.
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

  static HealthChecks of(
      ChannelRegistry channels,
      ClusterNetwork network,
      BroadcastThrottle throttle,
      InstantSource clock) {
    HealthChecks health = new HealthChecks();
    health.register(
        Check.LEDGER.component(),
        () ->
            failures(
                channels.snapshot(),
                entry ->
                    entry
                        .served()
                        .flatMap(
                            served ->
                                ledgerFailure(served.ledger(), reportedBy(entry, Check.LEDGER)))));
    health.register(
        Check.CONSENSUS.component(),
        () -> failures(channels.snapshot(), entry -> reportedBy(entry, Check.CONSENSUS)));
    health.register(
        Check.CHANNELS.component(),
        () -> failures(channels.snapshot(), entry -> reportedBy(entry, Check.CHANNELS)));
    QuorumConnectivity connectivity =
        new QuorumConnectivity(
            () -> peers(channels.snapshot(), network.connectedAddresses()),
            clock,
            CONNECTIVITY_GRACE);
    health.register("cluster", () -> network.failure().or(connectivity::failure));
    health.register("broadcast", throttle::failure);
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

  /** Why the channel failed for good, if it did and {@code check} reports it. */
  private static Optional<String> reportedBy(ChannelEntry entry, Check check) {
    return entry.failure().filter(f -> f.check() == check).map(ChannelFailure::reason);
  }

  /** Every failing channel's reason, joined; empty when none fails. */
  private static Optional<String> failures(
      ChannelSnapshot snapshot, Function<ChannelEntry, Optional<String>> check) {
    return snapshot.entries().entrySet().stream()
        .flatMap(
            channel ->
                check.apply(channel.getValue()).stream()
                    .map(reason -> "channel '" + channel.getKey() + "': " + reason))
        .reduce((a, b) -> a + "; " + b);
  }

  private static List<ChannelPeers> peers(
      ChannelSnapshot snapshot, Set<InetSocketAddress> connected) {
    return snapshot.entries().entrySet().stream()
        .flatMap(
            channel ->
                channel.getValue().runtime().stream()
                    .filter(ChannelRuntime::consenter)
                    .map(c -> channelPeers(channel.getKey(), c.host().orElseThrow(), connected)))
        .toList();
  }

  private static ChannelPeers channelPeers(
      String name, ReplicaHost host, Set<InetSocketAddress> connected) {
    return new ChannelPeers(name, host.consenters(), host.connectedPeers(connected));
  }
}
