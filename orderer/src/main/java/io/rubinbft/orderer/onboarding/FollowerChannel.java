package io.rubinbft.orderer.onboarding;

import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.ledger.HeightSubscription;
import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.channel.InvalidConfigException;
import io.rubinbft.orderer.concurrent.Worker;
import io.rubinbft.orderer.consensus.ConfigStates;
import io.rubinbft.orderer.service.ReadOnlyChannel;
import io.rubinbft.orderer.service.SubmitOutcome;
import io.rubinbft.orderer.validation.ChannelRules;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.Status;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A channel this node serves without ordering (Fabric's consensus relation "follower"): it is not
 * in the channel's consenter set, so a thread of its own keeps pulling new blocks from the
 * consenters, checks and appends them ({@link VerifyingAppender}), and Deliver serves what the
 * ledger holds under the newest config pulled, to the channel's orderers only (a consenter may need
 * a removed consenter's blocks to catch up; anyone else gets NOT_FOUND, as from Fabric's follower).
 * Broadcast is refused: transactions go to consenters. When a pulled config block makes this node a
 * consenter, pulling stops and the node is told, so that it starts its replica on the same ledger.
 */
public final class FollowerChannel implements ReadOnlyChannel, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(FollowerChannel.class);

  private final ChannelLedger ledger;
  private final ConfigStates configs;
  private final VerifyingAppender appender;
  private final HeightSubscription commits;
  private final BlockPuller puller;
  private final PullContext context;
  private final Runnable becameConsenter;
  private final Worker worker;
  private @Nullable ChannelRules rulesFollowed;
  private @Nullable ChannelRules followerRules;

  private FollowerChannel(
      ChannelLedger ledger,
      VerifyingAppender appender,
      PullContext context,
      Runnable becameConsenter) {
    this.ledger = ledger;
    this.appender = appender;
    this.configs = appender.configs().orElseThrow();
    this.commits = ledger.onHeight(configs::heightReached);
    this.context = context;
    this.becameConsenter = becameConsenter;
    this.puller = new BlockPuller(ledger.name(), configs::committed, context);
    this.worker =
        Worker.named("follower-" + ledger.name())
            .wakeWith(
                () -> {
                  puller.close();
                  commits.close();
                })
            .unstarted(self -> run());
  }

  /**
   * Starts following the channel whose ledger is {@code ledger} (it holds at least block 0).
   *
   * @param becameConsenter called on the follower's thread, once, after it appended a config block
   *     that lists this node as a consenter; pulling has stopped by then
   * @throws InvalidConfigException when the ledger's newest config cannot be read
   */
  public static FollowerChannel start(
      PullContext context, ChannelLedger ledger, Runnable becameConsenter)
      throws InvalidConfigException {
    FollowerChannel follower =
        new FollowerChannel(
            ledger,
            new VerifyingAppender(ledger, context.provider(), context.clock()),
            context,
            becameConsenter);
    follower.worker.start();
    return follower;
  }

  /**
   * Why pulling stopped for good, if it did (the ledger could not store a checked block, a broken
   * invariant): the channel no longer grows here, the participation API reports it "failed" and
   * {@code /healthz} fails its "channels" check. Deliver still serves what the ledger holds.
   */
  public Optional<String> failure() {
    return worker.failure().map(e -> "following stopped: " + e);
  }

  /** What pulling has done so far, for the metrics. */
  public PullStats pullStats() {
    return puller.stats();
  }

  /** The newest config pulled. */
  public ChannelConfig config() {
    return configs.committed().config();
  }

  @Override
  public synchronized ChannelRules rules() {
    ChannelRules committed = configs.committed().rules();
    // One object per config: an open Deliver stream evaluates its reader again when it changes.
    ChannelRules rules = followerRules;
    if (committed != rulesFollowed || rules == null) {
      rules = committed.asFollower();
      rulesFollowed = committed;
      followerRules = rules;
    }
    return rules;
  }

  @Override
  public ChannelLedger ledger() {
    return ledger;
  }

  /** Stops pulling; the ledger stays as it is. */
  @Override
  public void close() {
    worker.close();
  }

  /**
   * Fabric's answer on a channel its orderer follows: the Broadcast handler finds no chain of that
   * name (its followers are not chains), BAD_REQUEST "channel does not exist".
   */
  @Override
  public SubmitOutcome refusal() {
    return new SubmitOutcome.Refused(Status.BAD_REQUEST, "channel does not exist");
  }

  private void run() throws InterruptedException {
    puller.follow(ledger.height(), this::accept);
    if (!worker.stopRequested() && isConsenter()) {
      LOG.info(
          "channel {}: config block {} makes this node a consenter",
          ledger.name(),
          config().blockNumber());
      becameConsenter.run();
    }
  }

  /** Appends a checked block; a config block listing this node ends following. */
  private Optional<Refusal> accept(Block block) {
    long before = configs.committed().config().blockNumber();
    Optional<Refusal> rejected = appender.accept(block);
    if (rejected.isEmpty() && config().blockNumber() != before && isConsenter()) {
      puller.close();
    }
    return rejected;
  }

  private boolean isConsenter() {
    return config().consenters().withCertificate(context.identity().certificate()).isPresent();
  }
}
