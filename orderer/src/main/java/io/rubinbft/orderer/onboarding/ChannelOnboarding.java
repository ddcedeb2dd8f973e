package io.rubinbft.orderer.onboarding;

import com.google.protobuf.ByteString;
import io.rubinbft.ledger.BlockStore;
import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.ledger.Durability;
import io.rubinbft.ledger.InvalidBlockException;
import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.channel.ConfigBlockReader;
import io.rubinbft.orderer.channel.InvalidConfigException;
import io.rubinbft.orderer.concurrent.Worker;
import io.rubinbft.orderer.consensus.ConfigState;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Joining a channel with a config block {@code s > 0} (Fabric's onboarding): on a thread of its
 * own, pulls blocks {@code 0..s-1} from the orderers the join block names, checks and appends them
 * ({@link VerifyingAppender}), then appends the join block itself, which the ledger accepts only if
 * block {@code s-1} hashes to its previous hash: the join block, given by the operator, is the
 * trust anchor of everything pulled. When the pulled chain does not lead to it (a source made up a
 * chain of its own from block 0 on), the ledger is emptied and pulled again, the sources asked in
 * turn.
 *
 * <p>The join block is kept in {@link PendingJoins} until it is in the ledger, so a restart resumes
 * onboarding from the ledger's height: nothing pulled is lost or appended twice.
 */
public final class ChannelOnboarding implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ChannelOnboarding.class);

  /** What the node does when onboarding ends; called on the onboarding thread. */
  public interface Outcome {

    /** The ledger holds blocks {@code 0..s}: the channel can be served. */
    void active(ChannelLedger ledger);

    /** Onboarding stopped for a reason pulling cannot cure (the node's disk, its ledger). */
    void failed(String reason);
  }

  private final String channelId;
  private final long joinNumber;
  private final byte[] joinBlock;
  private final PullContext context;
  private final BlockStore store;
  private final PendingJoins pending;
  private final BlockPuller puller;
  private final Outcome outcome;
  private final Worker worker;
  private volatile ChannelLedger ledger;

  private ChannelOnboarding(
      ChannelConfig join,
      byte[] joinBlock,
      ConfigState joinState,
      PullContext context,
      BlockStore store,
      PendingJoins pending,
      Outcome outcome) {
    this.channelId = join.channelId();
    this.joinNumber = join.blockNumber();
    this.joinBlock = joinBlock;
    this.context = context;
    this.store = store;
    this.pending = pending;
    this.outcome = outcome;
    this.ledger = store.channel(channelId).orElseGet(() -> store.createChannel(channelId));
    // The join block's config names the orderers of today; block 0's may be long gone.
    this.puller = new BlockPuller(channelId, () -> joinState, context);
    this.worker =
        Worker.named("onboarding-" + channelId)
            .wakeWith(puller::close)
            // What run() does not catch (an Error) fails the onboarding as well.
            .onFailure(e -> outcome.failed("onboarding stopped: " + e))
            .unstarted(self -> run());
  }

  /**
   * Starts onboarding channel {@code join.channelId()} up to {@code joinBlock}, whose pending copy
   * must already be saved in {@code pending}. Its ledger is made if the store has none.
   *
   * @param joinBlock the join block's bytes, as the operator gave them
   * @throws InvalidConfigException when the join block's config cannot be used
   */
  public static ChannelOnboarding start(
      byte[] joinBlock,
      PullContext context,
      BlockStore store,
      PendingJoins pending,
      Outcome outcome)
      throws InvalidConfigException {
    ChannelConfig join = ConfigBlockReader.read(joinBlock);
    ConfigState joinState =
        VerifyingAppender.configFactory(context.provider(), context.clock()).build(join);
    ChannelOnboarding onboarding =
        new ChannelOnboarding(join, joinBlock, joinState, context, store, pending, outcome);
    onboarding.worker.start();
    return onboarding;
  }

  /** The number of blocks in the channel's ledger so far. */
  public long height() {
    return ledger.height();
  }

  /** What pulling has done so far, for the metrics. */
  public PullStats pullStats() {
    return puller.stats();
  }

  /** The join block's number {@code s}. */
  public long joinBlockNumber() {
    return joinNumber;
  }

  /** Stops onboarding (the node stops or the channel is removed); the ledger stays as it is. */
  @Override
  public void close() {
    worker.close();
  }

  private void run() {
    try {
      if (onboard()) {
        pending.remove(channelId);
        LOG.info("channel {}: onboarded up to join block {}", channelId, joinNumber);
        outcome.active(ledger);
      }
    } catch (InterruptedException e) {
      // closed
    } catch (InvalidConfigException | RuntimeException e) {
      if (!worker.stopRequested()) {
        LOG.error("channel {}: onboarding failed", channelId, e);
        outcome.failed("onboarding failed: " + e.getMessage());
      }
    } finally {
      puller.close();
    }
  }

  /** True once the ledger holds the join block, false when closed first. */
  private boolean onboard() throws InterruptedException, InvalidConfigException {
    while (!worker.stopRequested()) {
      if (holdsJoinBlock()) {
        return true;
      }
      VerifyingAppender appender =
          new VerifyingAppender(ledger, context.provider(), context.clock());
      PullOutcome pulled = puller.pullRange(ledger.height(), joinNumber - 1, appender);
      if (pulled == PullOutcome.CLOSED) {
        return false;
      }
      Optional<String> refused =
          pulled == PullOutcome.COMPLETE
              ? appendJoinBlock()
              : Optional.of("orderers refuse to extend it at block " + ledger.height());
      if (refused.isEmpty()) {
        return true;
      }
      LOG.warn(
          "channel {}: the chain pulled is not the channel's, pulling it again: {}",
          channelId,
          refused.get());
      puller.chainDiscarded();
      store.removeChannel(channelId);
      ledger = store.createChannel(channelId);
      Thread.sleep(context.limits().minBackoff());
    }
    return false;
  }

  private Optional<String> appendJoinBlock() {
    try {
      ledger.append(joinBlock, Durability.SYNCED);
      return Optional.empty();
    } catch (InvalidBlockException e) {
      return Optional.of(String.valueOf(e.getMessage()));
    }
  }

  /** Whether the ledger reaches the join block (a restart after it was appended). */
  private boolean holdsJoinBlock() {
    if (ledger.height() <= joinNumber) {
      return false;
    }
    ByteString stored = ledger.block(joinNumber).orElseThrow().bytes();
    if (!stored.equals(ByteString.copyFrom(joinBlock))) {
      throw new IllegalStateException(
          "the ledger of channel "
              + channelId
              + " holds another block "
              + joinNumber
              + " than the join block");
    }
    return true;
  }
}
