package io.rubinbft.orderer.deliver;

import io.rubinbft.ledger.BlockCursor;
import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.ledger.LedgerCorruptionException;
import io.rubinbft.ledger.StoredBlock;
import io.rubinbft.orderer.service.Channels;
import io.rubinbft.orderer.service.ServedChannel;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.SeekInfo.SeekContentType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the blocks of one accepted Deliver request, as Fabric's deliverBlocks loop does: for each
 * block of the range, NOT_FOUND if it does not exist yet and the client asked to fail, else wait
 * for it; check the reader's access again, under the channel's current config (as Fabric's
 * SessionAccessControl does: an org added by a config update reads the blocks before its addition,
 * and one removed loses access at the next block it would get); send it; after the stop block,
 * SUCCESS. Not thread-safe: one per request, on the request's own thread.
 */
final class BlockStreamer {

  private static final Logger LOG = LoggerFactory.getLogger(BlockStreamer.class);

  /**
   * How long one wait for the ledger to grow lasts. Waits end early on a new block or when the
   * ledger is removed or closed; the slice only bounds how long an idle stream goes unchecked.
   */
  private static final Duration WAIT_SLICE = Duration.ofMinutes(1);

  private final String channelId;
  private final ServedChannel channel;
  private final ChannelLedger ledger;
  private final Channels channels;
  private final Clock clock;
  private final SeekRange range;
  private final SeekContentType contentType;
  private final ReaderAccess access;

  BlockStreamer(
      String channelId,
      ServedChannel channel,
      Channels channels,
      Clock clock,
      SeekRange range,
      SeekContentType contentType,
      ReaderAccess access) {
    this.channelId = channelId;
    this.channel = channel;
    this.ledger = channel.ledger();
    this.channels = channels;
    this.clock = clock;
    this.range = range;
    this.contentType = contentType;
    this.access = access;
  }

  /**
   * Streams the range into {@code sink}.
   *
   * @return the final status to send
   * @throws InterruptedException when the call is cancelled
   */
  Status stream(ResponseSink sink) throws InterruptedException {
    long number = range.start();
    BlockCursor cursor = null;
    while (true) {
      Optional<Status> notReady = awaitBlock(number);
      if (notReady.isPresent()) {
        return notReady.get();
      }
      if (cursor == null) {
        cursor = ledger.cursor(number);
      }
      Optional<StoredBlock> block = read(cursor);
      if (block.isEmpty()) {
        return Status.SERVICE_UNAVAILABLE;
      }
      Optional<String> denial = access.denial(channel.rules(), clock.instant());
      if (denial.isPresent()) {
        LOG.info(
            "Deliver on channel '{}' stopped before block {}: {}", channelId, number, denial.get());
        return Status.FORBIDDEN;
      }
      sink.send(BlockContent.response(block.get(), contentType));
      if (range.endsAt(number)) {
        return Status.SUCCESS;
      }
      number++;
    }
  }

  /** Empty once block {@code number} exists, else the status that ends the request. */
  private Optional<Status> awaitBlock(long number) throws InterruptedException {
    while (Long.compareUnsigned(number, ledger.height()) >= 0) {
      if (range.failIfNotReady()) {
        return Optional.of(Status.NOT_FOUND);
      }
      if (!stillServed()) {
        return Optional.of(Status.SERVICE_UNAVAILABLE);
      }
      long started = System.nanoTime();
      boolean grown = ledger.awaitHeight(heightHolding(number), WAIT_SLICE);
      if (!grown && System.nanoTime() - started < WAIT_SLICE.toNanos()) {
        // awaitHeight gives up before its timeout only when the ledger is removed or closed.
        return Optional.of(Status.SERVICE_UNAVAILABLE);
      }
    }
    return Optional.empty();
  }

  /**
   * The height at which block {@code number} exists. Numbers are unsigned: a block at or beyond
   * 2^63 never exists, so such a request waits until it is cancelled or the channel goes away.
   */
  private static long heightHolding(long number) {
    return number >= 0 && number < Long.MAX_VALUE ? number + 1 : Long.MAX_VALUE;
  }

  private Optional<StoredBlock> read(BlockCursor cursor) {
    if (!stillServed()) {
      return Optional.empty();
    }
    try {
      return cursor.next();
    } catch (LedgerCorruptionException e) {
      LOG.error("Deliver on channel '{}' cannot read the ledger", channelId, e);
      return Optional.empty();
    }
  }

  /** Whether this node still serves the channel this request started on. */
  private boolean stillServed() {
    return channels.channel(channelId).filter(current -> current == channel).isPresent();
  }
}
