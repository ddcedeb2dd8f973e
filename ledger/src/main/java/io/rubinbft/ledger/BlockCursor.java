package io.rubinbft.ledger;

import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Reads a chain forward from a block number, as Deliver does. Besides each block's own checks it
 * checks that each block's previous_hash is the hash of the block it read before.
 *
 * <p>When {@link #next()} is empty the cursor is at the height; wait with {@link
 * ChannelLedger#awaitHeight} or {@link ChannelLedger#onHeight} and call it again. Not thread-safe:
 * one cursor per reader.
 */
public final class BlockCursor {

  private final ChannelLedger ledger;
  private long nextNumber;
  private byte @Nullable [] previousHash;

  BlockCursor(ChannelLedger ledger, long from) {
    if (from < 0) {
      throw new IllegalArgumentException("cursor start " + from + " is negative");
    }
    this.ledger = ledger;
    this.nextNumber = from;
  }

  /** The number of the block {@link #next()} returns next. */
  public long nextNumber() {
    return nextNumber;
  }

  /**
   * The next block, or empty at the height.
   *
   * @throws LedgerCorruptionException if the block fails a check or does not link to the last
   */
  public Optional<StoredBlock> next() {
    Optional<StoredBlock> next = ledger.block(nextNumber);
    if (next.isEmpty()) {
      return next;
    }
    StoredBlock block = next.get();
    if (previousHash != null) {
      BlockChecks.whyNotLinked(block.block(), previousHash)
          .ifPresent(
              reason -> {
                throw new LedgerCorruptionException(ledger.name(), block.number(), reason);
              });
    }
    previousHash = BlockHashing.headerHash(block.block().getHeader());
    nextNumber++;
    return next;
  }
}
