package io.rubinbft.orderer.onboarding;

import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.orderer.block.LastConfigIndex;
import io.rubinbft.orderer.channel.InvalidConfigException;
import java.util.OptionalLong;
import org.hyperledger.fabric.protos.common.Block;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Catching up across a reconfiguration: a consenter that learns it is behind one (frames of a newer
 * epoch reach it, or its view change does not install) cannot catch up by PBFT state transfer,
 * whose certificates are of an epoch it does not know. It pulls blocks from the channel's orderers
 * instead, as a joining node does: every block checked under the consenter set in force at it
 * ({@link VerifyingAppender}) and appended to the ledger, up to the newest config block the
 * orderers report; then the caller starts the replica of that config's epoch, or serves the channel
 * as a follower if the node is no longer a consenter.
 *
 * <p>Which config block is the newest: each orderer's newest block names its last config block, and
 * the highest of those claims is the target. It may be that only one correct orderer holds it (the
 * orderers that executed an epoch's last decision may be the very ones it removed, and up to f
 * others may lie or stay silent), so no (f+1)-th answer is waited for. A claim is trusted only as
 * far as it is served: blocks are pulled from the trusted source that claims the most ({@link
 * BlockPuller#pullWhileClaimed}), a source whose block fails its check or that does not serve what
 * it claimed is distrusted, and the pull ends once only distrusted sources claim more. So a liar
 * claiming a config block that does not exist costs one try, and one claiming less costs nothing.
 *
 * <p>The ledger must not be written by anyone else meanwhile (the replica is stopped). {@link
 * #close} from another thread ends a catch-up in progress.
 */
public final class CatchUp implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(CatchUp.class);

  private final ChannelLedger ledger;
  private final VerifyingAppender appender;
  private final BlockPuller puller;

  /**
   * @param ledger the channel's ledger, holding at least block 0
   * @throws InvalidConfigException when the ledger's newest config block cannot be read
   */
  public CatchUp(PullContext context, ChannelLedger ledger) throws InvalidConfigException {
    this(ledger, new VerifyingAppender(ledger, context.provider(), context.clock()), context);
  }

  private CatchUp(ChannelLedger ledger, VerifyingAppender appender, PullContext context) {
    this(
        ledger,
        appender,
        new BlockPuller(ledger.name(), () -> appender.inForce().orElseThrow(), context));
  }

  /**
   * @param puller pulls from the orderers of the config {@code appender} holds in force
   */
  CatchUp(ChannelLedger ledger, VerifyingAppender appender, BlockPuller puller) {
    this.ledger = ledger;
    this.appender = appender;
    this.puller = puller;
  }

  /**
   * Pulls, checks and appends blocks until the ledger holds the newest config block the channel's
   * orderers claim (blocks after it are left to the replica of its epoch), or no trusted source
   * claims more. Returns at once when the ledger holds it already.
   *
   * @return the number of the newest config block in the ledger afterwards
   * @throws InterruptedException when interrupted or {@linkplain #close closed} first
   * @throws IllegalStateException when more than f orderers refuse to extend the ledger: this
   *     node's chain is not the channel's (a broken invariant: consensus wrote it)
   */
  public long toNewestConfigBlock() throws InterruptedException {
    long target = claimedNewestConfigBlock();
    long height = ledger.height();
    if (target >= height) {
      LOG.info(
          "channel {}: catching up from block {} to config block {}",
          ledger.name(),
          height,
          target);
      switch (puller.pullWhileClaimed(height, target, appender)) {
        case COMPLETE -> {}
        case UNCLAIMED ->
            LOG.warn(
                "channel {}: stopped at block {}: no trusted orderer claims more",
                ledger.name(),
                ledger.height());
        case CLOSED ->
            throw new InterruptedException("catch-up of channel " + ledger.name() + " was closed");
        case PREFIX_REFUSED ->
            throw new IllegalStateException(
                "more than f orderers refuse to extend the ledger of channel "
                    + ledger.name()
                    + " at block "
                    + ledger.height()
                    + ": it is not the channel's chain");
      }
    }
    return appender.inForce().orElseThrow().config().blockNumber();
  }

  /**
   * Whether an orderer claims a config block the ledger does not hold yet: asks the orderers for
   * their newest blocks and pulls nothing, so the ledger's writer may keep running meanwhile. A
   * liar may make this true (the pull then costs it one try); without such a claim a catch-up would
   * pull nothing.
   *
   * @throws InterruptedException when interrupted or {@linkplain #close closed} first
   */
  public boolean newerConfigClaimed() throws InterruptedException {
    return claimedNewestConfigBlock() >= ledger.height();
  }

  /** What pulling has done so far, for the metrics. */
  public PullStats pullStats() {
    return puller.stats();
  }

  /** Ends a catch-up in progress. */
  @Override
  public void close() {
    puller.close();
  }

  /** The highest last config index the orderers' newest blocks name; none told, the ledger's. */
  private long claimedNewestConfigBlock() throws InterruptedException {
    long own = appender.inForce().orElseThrow().config().blockNumber();
    OptionalLong claimed = puller.newestBlocks().stream().mapToLong(CatchUp::lastConfigIndex).max();
    if (claimed.isEmpty()) {
      LOG.warn("channel {}: no orderer told its newest block", ledger.name());
    }
    return Math.max(own, claimed.orElse(own));
  }

  private static long lastConfigIndex(Block newest) {
    try {
      return LastConfigIndex.of(newest);
    } catch (IllegalArgumentException e) {
      return -1;
    }
  }
}
