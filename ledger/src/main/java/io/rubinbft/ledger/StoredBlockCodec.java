package io.rubinbft.ledger;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnsafeByteOperations;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;
import org.hyperledger.fabric.protos.common.Block;

/**
 * The value stored for a block: {@code CRC32C (int32 BE) | block bytes as appended}.
 *
 * <p>The checksum is ours, over the exact bytes: RocksDB checksums its own files, but a value that
 * was written wrong, or changed by anything that writes through RocksDB, would pass those. Decoding
 * re-checks everything a block promises about itself (checksum, header number, data hash) and
 * reports the first failure as corruption; it never returns unchecked bytes.
 */
final class StoredBlockCodec {

  private static final int CHECKSUM_BYTES = Integer.BYTES;

  private StoredBlockCodec() {}

  static byte[] encode(byte[] blockBytes) {
    return ByteBuffer.allocate(CHECKSUM_BYTES + blockBytes.length)
        .putInt(crc32c(blockBytes, 0, blockBytes.length))
        .put(blockBytes)
        .array();
  }

  static StoredBlock decode(String channel, long number, byte[] value) {
    if (value.length < CHECKSUM_BYTES) {
      throw new LedgerCorruptionException(
          channel, number, "stored value has " + value.length + " bytes, less than its checksum");
    }
    int recorded = ByteBuffer.wrap(value).getInt();
    int actual = crc32c(value, CHECKSUM_BYTES, value.length - CHECKSUM_BYTES);
    if (recorded != actual) {
      throw new LedgerCorruptionException(
          channel,
          number,
          String.format(
              "CRC32C of the stored block bytes is %08x but %08x was stored with them",
              actual, recorded));
    }
    ByteString bytes =
        UnsafeByteOperations.unsafeWrap(value, CHECKSUM_BYTES, value.length - CHECKSUM_BYTES);
    Block block = parse(channel, number, bytes);
    if (block.getHeader().getNumber() != number) {
      throw new LedgerCorruptionException(
          channel,
          number,
          "stored under number "
              + number
              + " but its header says "
              + block.getHeader().getNumber());
    }
    BlockChecks.whyDataHashWrong(block)
        .ifPresent(
            reason -> {
              throw new LedgerCorruptionException(channel, number, reason);
            });
    return new StoredBlock(number, bytes, block);
  }

  private static Block parse(String channel, long number, ByteString bytes) {
    try {
      Block block = AliasingParser.parse(Block.parser(), bytes);
      if (!block.hasHeader()) {
        throw new LedgerCorruptionException(channel, number, "stored block has no header");
      }
      return block;
    } catch (InvalidProtocolBufferException e) {
      throw new LedgerCorruptionException(
          channel, number, "stored bytes do not parse as a Block: " + e.getMessage());
    }
  }

  private static int crc32c(byte[] bytes, int offset, int length) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, offset, length);
    return (int) crc.getValue();
  }
}
