package io.rubinbft.ledger;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.hyperledger.fabric.protos.common.Block;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * A channel's transaction id index (layout in {@link KeyLayout}), with a {@link TxIdFilter} in
 * front of its lookups.
 */
final class TxIndex {

  private final LedgerDatabase db;
  private final String channel;
  private final int channelId;
  private final TxIdFilter filter;

  TxIndex(LedgerDatabase db, String channel, int channelId) {
    this(db, channel, channelId, TxIdFilter.MIN_IDS, TxIdFilter.MAX_IDS);
  }

  /** An index whose filter holds {@code minIds} to {@code maxIds} ids. */
  TxIndex(LedgerDatabase db, String channel, int channelId, int minIds, int maxIds) {
    this.db = db;
    this.channel = channel;
    this.channelId = channelId;
    this.filter = new TxIdFilter(this::forEachId, minIds, maxIds);
  }

  /**
   * Adds the block's tx ids to {@code batch}, which also holds the block itself, and to the filter
   * first: the filter holds them before the index does. Under the channel's append lock.
   */
  void addTo(WriteBatch batch, long number, Block block) throws RocksDBException {
    List<TxIds.Entry> entries = TxIds.of(block);
    filter.add(entries.stream().map(TxIds.Entry::txId).toList());
    for (TxIds.Entry entry : entries) {
      batch.put(
          db.txIndex(),
          KeyLayout.txKey(channelId, entry.txId(), number),
          KeyLayout.int32(entry.envelopeIndex()));
    }
  }

  /** The first occurrence of {@code txId} in the chain. */
  Optional<TxLocation> locate(String txId) {
    byte[] id = txId.getBytes(StandardCharsets.UTF_8);
    if (id.length == 0 || id.length > KeyLayout.MAX_TX_ID_BYTES || !filter.mayHold(id)) {
      return Optional.empty();
    }
    byte[] prefix = KeyLayout.txIdPrefix(channelId, id);
    return db.seekTxId(
        prefix,
        "tx index lookup of '" + txId + "'",
        it -> {
          it.seek(prefix);
          if (!it.isValid()) {
            return Optional.empty();
          }
          byte[] key = it.key();
          if (key.length != prefix.length + Long.BYTES || !KeyLayout.startsWith(key, prefix)) {
            return Optional.empty();
          }
          long number = ByteBuffer.wrap(key).getLong(prefix.length);
          byte[] value = it.value();
          if (value.length != Integer.BYTES) {
            throw new LedgerCorruptionException(
                channel,
                number,
                "tx index entry for '" + txId + "' has " + value.length + " bytes instead of 4");
          }
          return Optional.of(new TxLocation(number, KeyLayout.int32(value)));
        });
  }

  TxIdFilter filter() {
    return filter;
  }

  /** The filter's source: every tx id of this channel's index, in key order. */
  private int forEachId(int limit, Consumer<byte[]> sink) {
    byte[] start = KeyLayout.channelStart(channelId);
    return db.scan(
        db.txIndex(),
        "reading the tx ids of channel '" + channel + "'",
        it -> {
          int count = 0;
          for (it.seek(start);
              count <= limit && it.isValid() && KeyLayout.startsWith(it.key(), start);
              it.next()) {
            sink.accept(KeyLayout.txId(it.key()));
            count++;
          }
          return count;
        });
  }
}
