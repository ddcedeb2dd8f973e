package io.rubinbft.orderer.node;

import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.ledger.Durability;
import io.rubinbft.orderer.block.LastConfigIndex;
import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.channel.ConfigBlockReader;
import io.rubinbft.orderer.channel.InvalidConfigException;
import io.rubinbft.orderer.consensus.ReplicaHost;
import io.rubinbft.orderer.files.FileTrees;
import io.rubinbft.orderer.node.lifecycle.ChannelEvent;
import io.rubinbft.orderer.node.lifecycle.Relation;
import io.rubinbft.orderer.node.lifecycle.Transitions;
import io.rubinbft.orderer.onboarding.CatchUp;
import io.rubinbft.orderer.onboarding.ChannelOnboarding;
import io.rubinbft.orderer.onboarding.FollowerChannel;
import java.time.Duration;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the lifecycle thread starts, stops and deletes for a channel: its ledger, replica, follower,
 * onboarding and catch-up, on the node's shared parts. Each start hands the news of what it started
 * to a {@link ChannelNews}.
 */
final class ChannelStarts {

  private static final Logger LOG = LoggerFactory.getLogger(ChannelStarts.class);

  /**
   * How long a consenter that sees frames of a newer epoch waits before it pulls blocks: peers that
   * switched a moment before it send such frames too, and it usually reaches their epoch itself.
   */
  private static final Duration CATCH_UP_GRACE = Duration.ofSeconds(3);

  /**
   * What was started for a channel: the handle, the relation it serves (or will serve) as, and its
   * ledger unless it is being onboarded.
   */
  record Running(Object handle, Relation relation, @Nullable ChannelLedger ledger) {}

  private final NodeContext node;
  private final ChannelHeapCheck heapCheck;

  ChannelStarts(NodeContext node, ChannelHeapCheck heapCheck) {
    this.node = node;
    this.heapCheck = heapCheck;
  }

  /**
   * Why a join of {@code config}'s channel must be refused: with it the channels here would need
   * more heap than the node has (ChannelHeapCheck); empty when it fits.
   */
  Optional<String> heapRefusal(ChannelConfig config) {
    return heapCheck.refusal(config);
  }

  NodeContext node() {
    return node;
  }

  /** Whether this node is in {@code config}'s consenter set (by its certificate). */
  boolean isConsenter(ChannelConfig config) {
    return config.consenters().withCertificate(node.identity().certificate()).isPresent();
  }

  /** Whether the disk holds a ledger or a pending join block of channel {@code name}. */
  boolean leftOnDisk(String name) {
    return node.store().channel(name).isPresent()
        || node.onboarding().pendingJoins().read(name).isPresent();
  }

  /** Channel {@code name}'s ledger, which must exist. */
  ChannelLedger ledger(String name) {
    return node.store().channel(name).orElseThrow();
  }

  /** Creates channel {@code name}'s ledger holding {@code genesis}, synced, and serves it. */
  Running createAndServe(String name, byte[] genesis, ChannelNews news)
      throws InvalidConfigException {
    ChannelLedger ledger = node.store().createChannel(name);
    ledger.append(genesis, Durability.SYNCED);
    return serve(ledger, news);
  }

  /** Serves a channel whose ledger holds at least block 0, as consenter or follower. */
  Running serve(ChannelLedger ledger, ChannelNews news) throws InvalidConfigException {
    ChannelConfig config = newestConfig(ledger);
    heapCheck.served(config).ifPresent(LOG::warn);
    return isConsenter(config) ? startReplica(ledger, news) : startFollower(ledger, news);
  }

  /** Starts the replica of {@code ledger}'s channel; its news says when it must change. */
  Running startReplica(ChannelLedger ledger, ChannelNews news) throws InvalidConfigException {
    ChannelRuntime runtime =
        ChannelRuntime.start(
            node,
            ledger,
            new ChannelRuntime.Transitions() {
              @Override
              public void leftConsenters() {
                news.tell(new ChannelEvent.LeftConsenters());
              }

              @Override
              public void behindReconfiguration(long epoch) {
                news.tell(
                    new ChannelEvent.MaybeBehind("consenters run epoch " + epoch, CATCH_UP_GRACE));
              }

              @Override
              public void epochStarted(ChannelConfig config) {
                // Config is ordered: every node applies it as it is, and only says what it costs.
                heapCheck
                    .served(config)
                    .ifPresent(
                        warning ->
                            LOG.warn(
                                "channel {}: under the config of block {}: {}",
                                config.channelId(),
                                config.blockNumber(),
                                warning));
              }

              @Override
              public void viewChangeStalled() {
                news.tell(
                    new ChannelEvent.MaybeBehind(
                        "its view change did not install within the view-change timeout",
                        Duration.ZERO));
              }
            });
    runtime.onReplicaFailure(
        () -> {
          LOG.warn(
              "channel {}: {}; serving it again in {}",
              ledger.name(),
              runtime.replicaFailure().orElse("replica stopped"),
              Transitions.RESTART_PAUSE);
          news.tell(new ChannelEvent.ReplicaStopped());
        });
    return new Running(runtime, Relation.CONSENTER, ledger);
  }

  /** Starts following {@code ledger}'s channel; its news says when a config made it a consenter. */
  Running startFollower(ChannelLedger ledger, ChannelNews news) throws InvalidConfigException {
    FollowerChannel follower =
        FollowerChannel.start(
            node.pullContext(), ledger, () -> news.tell(new ChannelEvent.BecameConsenter()));
    return new Running(follower, Relation.FOLLOWER, ledger);
  }

  /** Keeps {@code joinBlock} as channel {@code name}'s pending join and starts onboarding. */
  ChannelOnboarding saveAndOnboard(String name, byte[] joinBlock, ChannelNews news)
      throws InvalidConfigException {
    node.onboarding().pendingJoins().save(name, joinBlock);
    return onboard(joinBlock, news);
  }

  /** Starts onboarding with the pending join block a restart found for channel {@code name}. */
  ChannelOnboarding resumeOnboarding(String name, ChannelNews news) throws InvalidConfigException {
    return onboard(node.onboarding().pendingJoins().read(name).orElseThrow(), news);
  }

  private ChannelOnboarding onboard(byte[] joinBlock, ChannelNews news)
      throws InvalidConfigException {
    // Counted from the join on, as a channel served is: the next join is weighed with it.
    heapCheck.served(ConfigBlockReader.read(joinBlock)).ifPresent(LOG::warn);
    return ChannelOnboarding.start(
        joinBlock,
        node.pullContext(),
        node.store(),
        node.onboarding().pendingJoins(),
        new ChannelOnboarding.Outcome() {
          @Override
          public void active(ChannelLedger ledger) {
            news.tell(new ChannelEvent.Onboarded());
          }

          @Override
          public void failed(String reason) {
            news.tell(new ChannelEvent.OnboardingStopped(reason));
          }
        });
  }

  /** The relation this node will have in the channel {@code joinBlock} joins. */
  Relation relationIn(byte[] joinBlock) throws InvalidConfigException {
    return isConsenter(ConfigBlockReader.read(joinBlock)) ? Relation.CONSENTER : Relation.FOLLOWER;
  }

  /** A channel this node stopped serving for good; its ledger still served if it can be. */
  StoppedChannel stopped(ChannelLedger ledger, Relation relation, String reason) {
    return StoppedChannel.of(node, ledger, relation.word(), reason);
  }

  /** Whether one of the channel's orderers claims a config block {@code ledger} lacks. */
  boolean newerConfigClaimed(ChannelLedger ledger)
      throws InvalidConfigException, InterruptedException {
    try (CatchUp probe = new CatchUp(node.pullContext(), ledger)) {
      return probe.newerConfigClaimed();
    }
  }

  /** A catch-up of {@code ledger}; its pull runs on the caller's thread. */
  CatchUp catchUp(ChannelLedger ledger) throws InvalidConfigException {
    return new CatchUp(node.pullContext(), ledger);
  }

  /**
   * Whether the runtime is still behind: it has seen frames of a newer epoch, or its replica orders
   * on the channel and is changing to a view (or complaining about its view, which it leaves only
   * once f + 1 do). One that reached the newer epoch, or installed a view, meanwhile is not.
   */
  static boolean stillBehind(ChannelRuntime runtime) {
    return runtime.newerEpochSeen().isPresent()
        || runtime
            .host()
            .filter(ReplicaHost::member)
            .map(host -> !host.status().progressing())
            .orElse(false);
  }

  /** Removes whatever a channel left: its ledger, its WAL folder and its pending join block. */
  void discard(String name) {
    node.onboarding().pendingJoins().remove(name);
    if (node.store().channel(name).isPresent()) {
      node.store().removeChannel(name);
    }
    FileTrees.delete(node.walRoot().resolve(name));
    heapCheck.removed(name);
  }

  private static ChannelConfig newestConfig(ChannelLedger ledger) throws InvalidConfigException {
    var tip = ledger.block(ledger.height() - 1).orElseThrow().block();
    return ConfigBlockReader.read(ledger.block(LastConfigIndex.of(tip)).orElseThrow().block());
  }
}
