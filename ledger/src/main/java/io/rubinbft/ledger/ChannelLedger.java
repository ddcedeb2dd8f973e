package io.rubinbft.ledger;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnsafeByteOperations;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.BlockHeader;
import org.jspecify.annotations.Nullable;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * One channel's chain of blocks. Thread-safe: appends are serialized, reads run concurrently with
 * them and see every block whose append has returned.
 *
 * <p>An append is one RocksDB write batch (the block and its tx index entries), so after any crash
 * a block is either there with its index entries or not there at all.
 */
public final class ChannelLedger {

  private final LedgerDatabase db;
  private final String name;
  private final int id;
  private final int maxBlockBytes;
  private final TxIndex txIndex;
  private final HeightWatch heightWatch;
  private final AtomicReference<CommitObserver> commits;
  private volatile Tip tip;
  private volatile boolean removed;

  /** The chain's end: its height and the last header with its hash (empty chain: null). */
  private record Tip(long height, @Nullable BlockHeader lastHeader, byte @Nullable [] lastHash) {}

  ChannelLedger(
      LedgerDatabase db,
      String name,
      int id,
      BlockStoreConfig config,
      Optional<Block> last,
      AtomicReference<CommitObserver> commits) {
    this.db = db;
    this.commits = commits;
    this.name = name;
    this.id = id;
    this.maxBlockBytes = config.maxBlockBytes();
    this.txIndex = new TxIndex(db, name, id);
    this.tip = last.map(b -> tipAfter(b.getHeader())).orElse(new Tip(0, null, null));
    this.heightWatch = new HeightWatch(name, tip.height(), config.maxHeightListeners());
  }

  public String name() {
    return name;
  }

  /** The number of blocks: the next block's number. */
  public long height() {
    return tip.height();
  }

  /** The header of the last block, empty while the chain is empty. */
  public Optional<BlockHeader> lastHeader() {
    return Optional.ofNullable(tip.lastHeader());
  }

  /**
   * Appends a block given as its serialized bytes, which are stored exactly as given.
   *
   * @throws InvalidBlockException if the bytes are not a block, exceed the size limit, or the block
   *     is not the next one: its number must be the height, its previous_hash the hash of the last
   *     header, its data_hash the hash of its envelopes
   */
  // Synchronized on this ledger: BlockStore.removeChannel takes the same lock.
  public synchronized void append(byte[] blockBytes, Durability durability) {
    ensureNotRemoved();
    if (blockBytes.length > maxBlockBytes) {
      throw new InvalidBlockException(
          name,
          "block has " + blockBytes.length + " bytes, more than the limit of " + maxBlockBytes);
    }
    Block block = parse(blockBytes);
    Tip current = tip;
    BlockChecks.whyNotNext(block, current.height(), current.lastHash())
        .ifPresent(
            reason -> {
              throw new InvalidBlockException(name, reason);
            });
    long number = current.height();
    long started = System.nanoTime();
    try (WriteBatch batch = new WriteBatch()) {
      batch.put(db.blocks(), KeyLayout.blockKey(id, number), StoredBlockCodec.encode(blockBytes));
      txIndex.addTo(batch, number, block);
      db.write(batch, durability, "append of block " + number + " to channel '" + name + "'");
    } catch (RocksDBException e) {
      throw new LedgerStorageException("building the write batch for block " + number, e);
    }
    Objects.requireNonNull(commits.get()).committed(name, System.nanoTime() - started);
    // A copy: the parsed header shares the caller's array, which the caller may reuse.
    tip = tipAfter(copyOf(block.getHeader()));
    heightWatch.advance(number + 1);
  }

  /**
   * Block {@code number}, checked (checksum, header number, data hash); empty at or above the
   * height.
   *
   * @throws LedgerCorruptionException if the stored block fails a check or is missing
   */
  public Optional<StoredBlock> block(long number) {
    ensureNotRemoved();
    if (number < 0 || number >= height()) {
      return Optional.empty();
    }
    byte[] value = db.get(db.blocks(), KeyLayout.blockKey(id, number), "read of block " + number);
    if (value == null) {
      ensureNotRemoved();
      throw new LedgerCorruptionException(name, number, "block is below the height but missing");
    }
    return Optional.of(StoredBlockCodec.decode(name, number, value));
  }

  /** Where the first occurrence of {@code txId} is, if any block of this channel holds it. */
  public Optional<TxLocation> locate(String txId) {
    ensureNotRemoved();
    return txIndex.locate(txId);
  }

  /** The block holding the first occurrence of {@code txId}. */
  public Optional<StoredBlock> blockByTxId(String txId) {
    return locate(txId).flatMap(location -> block(location.blockNumber()));
  }

  /** A cursor over the chain from block {@code from}; it sees blocks appended later. */
  public BlockCursor cursor(long from) {
    return new BlockCursor(this, from);
  }

  /**
   * Waits until the height is at least {@code atLeast}: true once it is, false on timeout or when
   * the channel is removed or the store closed.
   */
  public boolean awaitHeight(long atLeast, Duration timeout) throws InterruptedException {
    return heightWatch.await(atLeast, timeout);
  }

  /**
   * Calls {@code listener} with the new height after each append, on the appending thread: it must
   * be quick and must not block (hand the news to another thread).
   *
   * @throws IllegalStateException at the limit of listeners per channel
   */
  public HeightSubscription onHeight(LongConsumer listener) {
    return heightWatch.subscribe(listener);
  }

  int id() {
    return id;
  }

  void markRemoved() {
    removed = true;
    heightWatch.close();
  }

  private void ensureNotRemoved() {
    if (removed) {
      throw new IllegalStateException("channel '" + name + "' was removed or its store closed");
    }
  }

  /** Parses without copying the envelopes; the caller's array is copied into the store anyway. */
  private Block parse(byte[] blockBytes) {
    try {
      return AliasingParser.parse(Block.parser(), UnsafeByteOperations.unsafeWrap(blockBytes));
    } catch (InvalidProtocolBufferException e) {
      throw new InvalidBlockException(name, "bytes do not parse as a Block: " + e.getMessage());
    }
  }

  private static BlockHeader copyOf(BlockHeader header) {
    try {
      return BlockHeader.parseFrom(header.toByteArray());
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("a header we just serialized does not parse", e);
    }
  }

  private static Tip tipAfter(BlockHeader header) {
    return new Tip(header.getNumber() + 1, header, BlockHashing.headerHash(header));
  }
}
