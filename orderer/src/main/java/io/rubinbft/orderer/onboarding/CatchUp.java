package io.rubinbft.orderer.onboarding;

import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.orderer.block.LastConfigIndex;
import io.rubinbft.orderer.channel.InvalidConfigException;
import io.rubinbft.orderer.consensus.ConfigState;
import java.util.Comparator;
import java.util.List;
import org.hyperledger.fabric.protos.common.Block;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Catching up across a reconfiguration: a consenter that learns it is behind one (frames of a newer
 * epoch reach it) cannot catch up by PBFT state transfer, whose certificates are of an epoch it
 * does not know. It pulls blocks from the channel's orderers instead, as a joining node does: every
 * block checked under the consenter set in force at it ({@link VerifyingAppender}) and appended to
 * the ledger, up to the newest config block the orderers report; then the caller starts the replica
 * of that config's epoch, or serves the channel as a follower if the node is no longer a consenter.
 *
 * <p>Which config block is the newest: each orderer's newest block names its last config block;
 * with f the consenter set's fault bound, the (f+1)-th highest of those answers is one that at
 * least one correct orderer has, so up to f lying orderers can neither make this node wait for a
 * block that does not exist nor stop it short of the newest one the others agree on. A lie shows
 * later anyway: a pulled block that fails its check is discarded and its source distrusted.
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
    this.ledger = ledger;
    this.appender = new VerifyingAppender(ledger, context.provider(), context.clock());
    this.puller = new BlockPuller(ledger.name(), () -> appender.inForce().orElseThrow(), context);
  }

  /**
   * Pulls, checks and appends blocks until the ledger holds the newest config block the channel's
   * orderers report (blocks after it are left to the replica of its epoch). Returns at once when
   * the ledger holds it already.
   *
   * @return the number of the newest config block in the ledger afterwards
   * @throws InterruptedException when interrupted or {@linkplain #close closed} first
   * @throws IllegalStateException when more than f orderers refuse to extend the ledger: this
   *     node's chain is not the channel's (a broken invariant: consensus wrote it)
   */
  public long toNewestConfigBlock() throws InterruptedException {
    long target = reportedNewestConfigBlock();
    long height = ledger.height();
    if (target >= height) {
      LOG.info(
          "channel {}: catching up from block {} to config block {}",
          ledger.name(),
          height,
          target);
      switch (puller.pullRange(height, target, appender)) {
        case COMPLETE -> {}
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

  /** What pulling has done so far, for the metrics. */
  public PullStats pullStats() {
    return puller.stats();
  }

  /** Ends a catch-up in progress. */
  @Override
  public void close() {
    puller.close();
  }

  /**
   * The (f+1)-th highest last config index the orderers' newest blocks name; with fewer answers,
   * the lowest; with none, the ledger's own.
   */
  private long reportedNewestConfigBlock() throws InterruptedException {
    ConfigState inForce = appender.inForce().orElseThrow();
    int f = inForce.config().consenters().quorums().f();
    List<Long> reported =
        puller.newestBlocks().stream()
            .map(CatchUp::lastConfigIndex)
            .sorted(Comparator.reverseOrder())
            .toList();
    if (reported.isEmpty()) {
      LOG.warn("channel {}: no orderer told its newest block", ledger.name());
      return inForce.config().blockNumber();
    }
    return reported.get(Math.min(f, reported.size() - 1));
  }

  private static long lastConfigIndex(Block newest) {
    try {
      return LastConfigIndex.of(newest);
    } catch (IllegalArgumentException e) {
      return -1;
    }
  }
}
