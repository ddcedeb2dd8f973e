package io.rubinbft.ledger;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import org.hyperledger.fabric.protos.common.Block;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * Every channel's chain in one embedded RocksDB (layout in {@link KeyLayout}).
 *
 * <p>Opening recovers after any crash: RocksDB replays its own write-ahead log (every append is one
 * atomic write batch), then each channel's last block is read and checked, so a store that opens
 * has a checked tip for every channel. Thread-safe; one process at a time (RocksDB locks the
 * directory).
 */
public final class BlockStore implements AutoCloseable {

  private final BlockStoreConfig config;
  private final LedgerDatabase db;

  @GuardedBy("this")
  private final Map<String, ChannelLedger> channels = new TreeMap<>();

  private final AtomicReference<CommitObserver> commits =
      new AtomicReference<>(CommitObserver.NONE);

  private BlockStore(BlockStoreConfig config, LedgerDatabase db) {
    this.config = config;
    this.db = db;
  }

  /**
   * Opens (or creates) the store.
   *
   * @throws LedgerCorruptionException if a channel's last block fails its checks
   */
  public static BlockStore open(BlockStoreConfig config) {
    BlockStore store = new BlockStore(config, LedgerDatabase.open(config.directory()));
    try {
      store.loadChannels();
    } catch (RuntimeException e) {
      store.close();
      throw e;
    }
    return store;
  }

  /** From now on, every channel's appends are timed to {@code observer} (for metrics). */
  public void observeCommits(CommitObserver observer) {
    commits.set(observer);
  }

  /**
   * Creates an empty channel.
   *
   * @throws IllegalArgumentException if the name is not a Fabric channel name or exists
   * @throws IllegalStateException at the limit of channels
   */
  public synchronized ChannelLedger createChannel(String name) {
    ChannelNames.invalidReason(name)
        .ifPresent(
            reason -> {
              throw new IllegalArgumentException(reason);
            });
    if (channels.containsKey(name)) {
      throw new IllegalArgumentException("channel '" + name + "' already exists");
    }
    if (channels.size() >= config.maxChannels()) {
      throw new IllegalStateException(
          "the store holds " + channels.size() + " channels, the limit; remove one first");
    }
    byte[] stored = db.get(db.meta(), KeyLayout.nextChannelIdKey(), "read of the next channel id");
    int id = stored == null ? 0 : KeyLayout.int32(stored);
    try (WriteBatch batch = new WriteBatch()) {
      batch.put(db.meta(), KeyLayout.channelKey(name), KeyLayout.int32(id));
      batch.put(db.meta(), KeyLayout.nextChannelIdKey(), KeyLayout.int32(id + 1));
      db.write(batch, Durability.SYNCED, "creation of channel '" + name + "'");
    } catch (RocksDBException e) {
      throw new LedgerStorageException("building the batch creating channel '" + name + "'", e);
    }
    ChannelLedger ledger = new ChannelLedger(db, name, id, config, Optional.empty(), commits);
    channels.put(name, ledger);
    return ledger;
  }

  public synchronized Optional<ChannelLedger> channel(String name) {
    return Optional.ofNullable(channels.get(name));
  }

  /** The channels' names in order. */
  public synchronized List<String> channelNames() {
    return new ArrayList<>(channels.keySet());
  }

  /**
   * Removes a channel with all its blocks and index entries (synced). Readers still holding its
   * {@link ChannelLedger} get {@link IllegalStateException}; waiters wake up.
   *
   * @throws IllegalArgumentException if there is no such channel
   */
  public synchronized void removeChannel(String name) {
    ChannelLedger ledger = channels.get(name);
    if (ledger == null) {
      throw new IllegalArgumentException("channel '" + name + "' does not exist");
    }
    int id = ledger.id();
    byte[] start = KeyLayout.channelStart(id);
    byte[] end = KeyLayout.channelStart(id + 1);
    // Holding the ledger's append lock: no append can land after the range deletion.
    synchronized (ledger) {
      try (WriteBatch batch = new WriteBatch()) {
        batch.delete(db.meta(), KeyLayout.channelKey(name));
        batch.deleteRange(db.blocks(), start, end);
        batch.deleteRange(db.txIndex(), start, end);
        db.write(batch, Durability.SYNCED, "removal of channel '" + name + "'");
      } catch (RocksDBException e) {
        throw new LedgerStorageException("building the batch removing channel '" + name + "'", e);
      }
      ledger.markRemoved();
    }
    channels.remove(name);
  }

  @Override
  public synchronized void close() {
    channels.values().forEach(ChannelLedger::markRemoved);
    channels.clear();
    db.close();
  }

  @SuppressWarnings("GuardedBy") // runs in open(), before the store is shared
  private void loadChannels() {
    byte[] prefix = KeyLayout.channelPrefix();
    Map<String, Integer> ids =
        db.scan(
            db.meta(),
            "listing the channels",
            it -> {
              Map<String, Integer> found = new TreeMap<>();
              for (it.seek(prefix);
                  it.isValid() && KeyLayout.startsWith(it.key(), prefix);
                  it.next()) {
                found.put(KeyLayout.channelName(it.key()), KeyLayout.int32(it.value()));
              }
              return found;
            });
    ids.forEach(
        (name, id) ->
            channels.put(
                name, new ChannelLedger(db, name, id, config, lastBlock(name, id), commits)));
  }

  private Optional<Block> lastBlock(String name, int id) {
    return db.scan(
        db.blocks(),
        "finding the last block of channel '" + name + "'",
        it -> {
          it.seekForPrev(KeyLayout.blockKey(id, -1L));
          if (!it.isValid() || !KeyLayout.startsWith(it.key(), KeyLayout.channelStart(id))) {
            return Optional.empty();
          }
          long number = KeyLayout.blockNumber(it.key());
          return Optional.of(StoredBlockCodec.decode(name, number, it.value()).block());
        });
  }
}
