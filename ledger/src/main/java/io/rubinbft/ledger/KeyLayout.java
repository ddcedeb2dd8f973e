package io.rubinbft.ledger;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The keys of the one RocksDB that holds every channel.
 *
 * <pre>
 * column family   key                                                    value
 * default         "channel/" name (UTF-8)                                channel id (int32 BE)
 * default         "next-channel-id"                                      next channel id (int32 BE)
 * blocks          channel id (int32 BE) | block number (int64 BE)        {@link StoredBlockCodec}
 * tx-index        channel id | tx id length (uint8) | tx id | number     envelope index (int32 BE)
 * </pre>
 *
 * <p>Channels get a numeric id at creation (never reused), so every per-channel key starts with 4
 * fixed bytes and removing a channel is two range deletions {@code [id, id + 1)}. Big-endian
 * numbers keep keys in block order, so RocksDB iterates a chain in order. The tx index puts the
 * block number after the tx id, so a tx id seen twice keeps every occurrence and a lookup finds the
 * first (the one Fabric peers treat as valid).
 */
final class KeyLayout {

  static final String BLOCKS_FAMILY = "blocks";
  static final String TX_INDEX_FAMILY = "tx-index";
  static final int MAX_TX_ID_BYTES = 255;

  /**
   * The tx index keys' prefix that RocksDB's Bloom filters hold: channel id, tx id length and the
   * tx id's first 9 bytes (36 bits of a Fabric tx id's 64 hex digits). Every key is at least this
   * long (a 1-byte tx id and a block number make 14 bytes), so every key is in the filters; a
   * lookup of a shorter tx id is not filtered (see {@link LedgerDatabase#seekTxId}).
   */
  static final int TX_FILTER_PREFIX_BYTES = Integer.BYTES + 1 + 9;

  private static final byte[] CHANNEL_PREFIX = "channel/".getBytes(StandardCharsets.UTF_8);
  private static final byte[] NEXT_CHANNEL_ID = "next-channel-id".getBytes(StandardCharsets.UTF_8);

  private KeyLayout() {}

  static byte[] nextChannelIdKey() {
    return NEXT_CHANNEL_ID.clone();
  }

  static byte[] channelPrefix() {
    return CHANNEL_PREFIX.clone();
  }

  static byte[] channelKey(String name) {
    byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(CHANNEL_PREFIX.length + utf8.length)
        .put(CHANNEL_PREFIX)
        .put(utf8)
        .array();
  }

  static String channelName(byte[] channelKey) {
    return new String(
        channelKey,
        CHANNEL_PREFIX.length,
        channelKey.length - CHANNEL_PREFIX.length,
        StandardCharsets.UTF_8);
  }

  static byte[] blockKey(int channelId, long number) {
    return ByteBuffer.allocate(Integer.BYTES + Long.BYTES)
        .putInt(channelId)
        .putLong(number)
        .array();
  }

  static long blockNumber(byte[] blockKey) {
    return ByteBuffer.wrap(blockKey).getLong(Integer.BYTES);
  }

  /** The first key of a channel's range; {@code channelStart(id + 1)} is its exclusive end. */
  static byte[] channelStart(int channelId) {
    return ByteBuffer.allocate(Integer.BYTES).putInt(channelId).array();
  }

  /** The tx index key without its block number: every occurrence of a tx id starts with it. */
  static byte[] txIdPrefix(int channelId, byte[] txId) {
    return ByteBuffer.allocate(Integer.BYTES + 1 + txId.length)
        .putInt(channelId)
        .put((byte) txId.length)
        .put(txId)
        .array();
  }

  static byte[] txKey(int channelId, byte[] txId, long number) {
    byte[] prefix = txIdPrefix(channelId, txId);
    return ByteBuffer.allocate(prefix.length + Long.BYTES).put(prefix).putLong(number).array();
  }

  /** The tx id of a tx index key. */
  static byte[] txId(byte[] txKey) {
    int length = Byte.toUnsignedInt(txKey[Integer.BYTES]);
    return Arrays.copyOfRange(txKey, Integer.BYTES + 1, Integer.BYTES + 1 + length);
  }

  static boolean startsWith(byte[] key, byte[] prefix) {
    return key.length >= prefix.length
        && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
  }

  static byte[] int32(int value) {
    return ByteBuffer.allocate(Integer.BYTES).putInt(value).array();
  }

  static int int32(byte[] bytes) {
    return ByteBuffer.wrap(bytes).getInt();
  }
}
