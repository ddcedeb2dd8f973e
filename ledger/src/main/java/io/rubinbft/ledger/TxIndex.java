package io.rubinbft.ledger;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.Block;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/** A channel's transaction id index (layout in {@link KeyLayout}). */
final class TxIndex {

  private final LedgerDatabase db;
  private final String channel;
  private final int channelId;

  TxIndex(LedgerDatabase db, String channel, int channelId) {
    this.db = db;
    this.channel = channel;
    this.channelId = channelId;
  }

  /** Adds the block's tx ids to {@code batch}, which also holds the block itself. */
  void addTo(WriteBatch batch, long number, Block block) throws RocksDBException {
    for (TxIds.Entry entry : TxIds.of(block)) {
      batch.put(
          db.txIndex(),
          KeyLayout.txKey(channelId, entry.txId(), number),
          KeyLayout.int32(entry.envelopeIndex()));
    }
  }

  /** The first occurrence of {@code txId} in the chain. */
  Optional<TxLocation> locate(String txId) {
    byte[] id = txId.getBytes(StandardCharsets.UTF_8);
    if (id.length == 0 || id.length > KeyLayout.MAX_TX_ID_BYTES) {
      return Optional.empty();
    }
    byte[] prefix = KeyLayout.txIdPrefix(channelId, id);
    return db.scan(
        db.txIndex(),
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
}
