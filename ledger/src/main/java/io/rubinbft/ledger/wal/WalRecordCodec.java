package io.rubinbft.ledger.wal;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * One record on disk: {@code length (int32 BE) | CRC32C (int32 BE) | payload (length bytes)}.
 *
 * <p>The checksum covers the record's index, its length and its payload. The index is not stored
 * (it follows from the segment's first index and the record's position), but checking it catches a
 * valid record that ended up in the wrong place, such as a stale segment file.
 */
final class WalRecordCodec {

  static final int HEADER_BYTES = 2 * Integer.BYTES;

  private WalRecordCodec() {}

  static ByteBuffer header(long index, byte[] payload) {
    return ByteBuffer.allocate(HEADER_BYTES)
        .putInt(payload.length)
        .putInt(checksum(index, payload))
        .flip();
  }

  static int checksum(long index, byte[] payload) {
    CRC32C crc = new CRC32C();
    crc.update(
        ByteBuffer.allocate(Long.BYTES + Integer.BYTES)
            .putLong(index)
            .putInt(payload.length)
            .flip());
    crc.update(payload);
    return (int) crc.getValue();
  }
}
