package io.rubinbft.ledger;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;
import java.util.function.Supplier;
import org.rocksdb.AbstractNativeReference;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.IndexType;
import org.rocksdb.LRUCache;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteBufferManager;
import org.rocksdb.WriteOptions;

/**
 * The one RocksDB of a ledger with its column families (see {@link KeyLayout}), and every native
 * object that goes with it: they hold native memory, so this class owns and closes them all.
 *
 * <p>Blocks are large values written once and read sequentially, so the blocks column family keeps
 * them in blob files (RocksDB BlobDB): compactions then move small references instead of rewriting
 * megabytes of envelopes. Envelopes are mostly signatures and hashes, so they are not compressed.
 *
 * <p>The tx index keeps a Bloom filter of its keys' first {@link KeyLayout#TX_FILTER_PREFIX_BYTES}
 * bytes (channel id, tx id length and the tx id's start) in every table file and in the memtables,
 * so a lookup of a tx id the channel never ordered, the common case, is answered by the filters of
 * the whole history instead of index and data blocks read at every level. The filters are split
 * into partitions that live in the block cache, so they count against this database's memory budget
 * however long the history is; only the partitions' top-level indexes stay pinned there.
 */
final class LedgerDatabase implements AutoCloseable {

  private static final long BLOB_MIN_BYTES = 4 * 1024;
  private static final long BLOB_FILE_BYTES = 256L * 1024 * 1024;
  private static final long BLOCKS_WRITE_BUFFER_BYTES = 16L * 1024 * 1024;
  private static final long INDEX_WRITE_BUFFER_BYTES = 4L * 1024 * 1024;

  /**
   * The bound on this database's native memory: memtables of all column families together, charged
   * to the block cache, which holds this much in all. Blocks live in blob files, so memtables hold
   * small references and index entries; RocksDB's defaults (64 MiB write buffers per family, two
   * each) would let an idle-looking replica grow by hundreds of MiB. 16 MiB: 8 MiB of memtables
   * hold tens of thousands of tx index entries between flushes, and a replica's whole memory has a
   * budget (orderer/docs/MEMORY.md).
   */
  private static final long MEMORY_BUDGET_BYTES = 16L * 1024 * 1024;

  private static final long SYNC_STEP_BYTES = 1024 * 1024;

  /** Bits per prefix in the tx index's filters: about 1 % false positives. */
  private static final double TX_FILTER_BITS_PER_KEY = 10;

  /** The share of a tx index memtable that holds its prefix Bloom filter. */
  private static final double TX_MEMTABLE_FILTER_RATIO = 0.05;

  static {
    RocksDB.loadLibrary();
  }

  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private final List<AbstractNativeReference> resources;
  private final RocksDB db;
  private final ColumnFamilyHandle meta;
  private final ColumnFamilyHandle blocks;
  private final ColumnFamilyHandle txIndex;
  private final WriteOptions synced;
  private final WriteOptions unsynced;
  private final ReadOptions totalOrder;
  private final ReadOptions samePrefix;

  @GuardedBy("lock")
  private boolean closed;

  private LedgerDatabase(
      List<AbstractNativeReference> resources, RocksDB db, List<ColumnFamilyHandle> handles) {
    this.resources = resources;
    this.db = db;
    this.meta = handles.get(0);
    this.blocks = handles.get(1);
    this.txIndex = handles.get(2);
    this.synced = add(resources, new WriteOptions().setSync(true));
    this.unsynced = add(resources, new WriteOptions().setSync(false));
    // The tx index has a prefix extractor, so RocksDB's default reads would be prefix seeks:
    // every scan that may cross prefixes asks for total order.
    this.totalOrder = add(resources, new ReadOptions().setTotalOrderSeek(true));
    this.samePrefix = add(resources, new ReadOptions().setPrefixSameAsStart(true));
  }

  static LedgerDatabase open(Path directory) {
    return open(directory, true);
  }

  /**
   * The database at {@code directory}; without {@code txIdFilters} the tx index's tables and
   * memtables get no Bloom filters (for measuring what they save).
   */
  static LedgerDatabase open(Path directory, boolean txIdFilters) {
    List<AbstractNativeReference> resources = new ArrayList<>();
    try {
      LRUCache cache = add(resources, new LRUCache(MEMORY_BUDGET_BYTES));
      WriteBufferManager memtables =
          add(resources, new WriteBufferManager(MEMORY_BUDGET_BYTES / 2, cache));
      DBOptions options =
          add(resources, new DBOptions())
              .setWriteBufferManager(memtables)
              .setCreateIfMissing(true)
              .setCreateMissingColumnFamilies(true)
              .setMaxBackgroundJobs(2)
              // Write back in 1 MiB steps instead of in bursts at each flush and sync.
              .setBytesPerSync(SYNC_STEP_BYTES)
              .setWalBytesPerSync(SYNC_STEP_BYTES);
      ColumnFamilyOptions blockOptions =
          add(resources, new ColumnFamilyOptions())
              .setEnableBlobFiles(true)
              .setMinBlobSize(BLOB_MIN_BYTES)
              .setBlobFileSize(BLOB_FILE_BYTES)
              .setEnableBlobGarbageCollection(true)
              .setBlobCompressionType(CompressionType.NO_COMPRESSION)
              .setWriteBufferSize(BLOCKS_WRITE_BUFFER_BYTES)
              .setTableFormatConfig(new BlockBasedTableConfig().setBlockCache(cache));
      ColumnFamilyOptions indexOptions =
          add(resources, new ColumnFamilyOptions())
              .setWriteBufferSize(INDEX_WRITE_BUFFER_BYTES)
              .setTableFormatConfig(new BlockBasedTableConfig().setBlockCache(cache));
      ColumnFamilyOptions txIndexOptions = txIndexOptions(resources, cache, txIdFilters);
      List<ColumnFamilyDescriptor> families =
          List.of(
              new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, indexOptions),
              new ColumnFamilyDescriptor(
                  KeyLayout.BLOCKS_FAMILY.getBytes(StandardCharsets.UTF_8), blockOptions),
              new ColumnFamilyDescriptor(
                  KeyLayout.TX_INDEX_FAMILY.getBytes(StandardCharsets.UTF_8), txIndexOptions));
      List<ColumnFamilyHandle> handles = new ArrayList<>();
      RocksDB db = RocksDB.open(options, directory.toString(), families, handles);
      // Closed in reverse: column family handles, then the database, then the options.
      resources.add(db);
      resources.addAll(handles);
      return new LedgerDatabase(resources, db, handles);
    } catch (RocksDBException e) {
      closeAll(resources);
      throw new LedgerStorageException("cannot open the ledger at " + directory, e);
    }
  }

  /** The tx index's options: its keys' prefixes in Bloom filters, with {@code filters}. */
  private static ColumnFamilyOptions txIndexOptions(
      List<AbstractNativeReference> resources, LRUCache cache, boolean filters) {
    ColumnFamilyOptions options =
        add(resources, new ColumnFamilyOptions()).setWriteBufferSize(INDEX_WRITE_BUFFER_BYTES);
    if (!filters) {
      return options.setTableFormatConfig(new BlockBasedTableConfig().setBlockCache(cache));
    }
    return options
        .useFixedLengthPrefixExtractor(KeyLayout.TX_FILTER_PREFIX_BYTES)
        .setMemtablePrefixBloomSizeRatio(TX_MEMTABLE_FILTER_RATIO)
        .setTableFormatConfig(
            new BlockBasedTableConfig()
                .setBlockCache(cache)
                .setFilterPolicy(add(resources, new BloomFilter(TX_FILTER_BITS_PER_KEY)))
                // Lookups seek by prefix, never get a whole key.
                .setWholeKeyFiltering(false)
                .setPartitionFilters(true)
                .setIndexType(IndexType.kTwoLevelIndexSearch)
                .setCacheIndexAndFilterBlocks(true)
                .setCacheIndexAndFilterBlocksWithHighPriority(true)
                .setPinTopLevelIndexAndFilter(true));
  }

  ColumnFamilyHandle meta() {
    return meta;
  }

  ColumnFamilyHandle blocks() {
    return blocks;
  }

  ColumnFamilyHandle txIndex() {
    return txIndex;
  }

  /** The value at {@code key}, or {@code null}; {@code what} names the read in errors. */
  byte[] get(ColumnFamilyHandle family, byte[] key, String what) {
    return whileOpen(
        () -> {
          try {
            return db.get(family, key);
          } catch (RocksDBException e) {
            throw new LedgerStorageException(what + " failed", e);
          }
        });
  }

  void write(WriteBatch batch, Durability durability, String what) {
    whileOpen(
        () -> {
          try {
            db.write(durability == Durability.SYNCED ? synced : unsynced, batch);
            return null;
          } catch (RocksDBException e) {
            throw new LedgerStorageException(what + " failed", e);
          }
        });
  }

  /**
   * Runs {@code scan} over a new iterator of {@code family}, then checks that the iterator did not
   * stop on an error; {@code what} names the scan in errors.
   */
  <T> T scan(ColumnFamilyHandle family, String what, Function<RocksIterator, T> scan) {
    return scan(family, totalOrder, what, scan);
  }

  /**
   * Runs {@code lookup} over a new iterator of the tx index that it seeks to {@code prefix}, one tx
   * id's keys, and that finds every key starting with {@code prefix}, not necessarily any other. A
   * prefix as long as the filters' lets the filters answer; a shorter one is read in total order.
   */
  <T> T seekTxId(byte[] prefix, String what, Function<RocksIterator, T> lookup) {
    return scan(
        txIndex,
        prefix.length >= KeyLayout.TX_FILTER_PREFIX_BYTES ? samePrefix : totalOrder,
        what,
        lookup);
  }

  private <T> T scan(
      ColumnFamilyHandle family,
      ReadOptions readOptions,
      String what,
      Function<RocksIterator, T> scan) {
    return whileOpen(
        () -> {
          try (RocksIterator it = db.newIterator(family, readOptions)) {
            T result = scan.apply(it);
            it.status();
            return result;
          } catch (RocksDBException e) {
            throw new LedgerStorageException(what + " failed", e);
          }
        });
  }

  /**
   * Closes every native object once no call is using them: a read racing a close must fail in Java,
   * not touch freed native memory.
   */
  @Override
  public void close() {
    lock.writeLock().lock();
    try {
      closed = true;
      closeAll(resources);
    } finally {
      lock.writeLock().unlock();
    }
  }

  private <T> T whileOpen(Supplier<T> call) {
    lock.readLock().lock();
    try {
      if (closed) {
        throw new IllegalStateException("the ledger is closed");
      }
      return call.get();
    } finally {
      lock.readLock().unlock();
    }
  }

  private static <T extends AbstractNativeReference> T add(
      List<AbstractNativeReference> resources, T resource) {
    resources.add(resource);
    return resource;
  }

  private static void closeAll(List<AbstractNativeReference> resources) {
    for (int i = resources.size() - 1; i >= 0; i--) {
      resources.get(i).close();
    }
    resources.clear();
  }
}
