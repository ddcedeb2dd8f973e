package io.rubinbft.ledger.wal;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads one segment file record by record, checking each, up to the file's size at opening.
 *
 * <p>A bad record is reported with its offset and whether a torn write explains it: a torn write
 * leaves a prefix of the last record (a cut header or payload) or, after a power loss, records
 * whose pages never reached the disk and read as zeros. So a bad record that is cut by the end of
 * the file, or followed only by zero bytes, is a torn write; a bad record followed by any other
 * byte is corruption.
 */
final class WalSegmentReader implements AutoCloseable {

  sealed interface Step {}

  record Entry(long index, byte[] payload) implements Step {}

  record End(long offset) implements Step {}

  record Bad(long offset, String problem, boolean tornWrite) implements Step {}

  private static final int BUFFER_BYTES = 64 * 1024;

  private final DataInputStream in;
  private final long size;
  private final int maxRecordBytes;
  private long offset;
  private long nextIndex;

  WalSegmentReader(Path file, long firstIndex, int maxRecordBytes) throws IOException {
    this.size = Files.size(file);
    this.in =
        new DataInputStream(new BufferedInputStream(Files.newInputStream(file), BUFFER_BYTES));
    this.maxRecordBytes = maxRecordBytes;
    this.nextIndex = firstIndex;
  }

  long nextIndex() {
    return nextIndex;
  }

  Step next() throws IOException {
    long remaining = size - offset;
    if (remaining == 0) {
      return new End(offset);
    }
    if (remaining < WalRecordCodec.HEADER_BYTES) {
      return new Bad(offset, "a record header cut after " + remaining + " bytes", true);
    }
    int length = in.readInt();
    int checksum = in.readInt();
    long left = remaining - WalRecordCodec.HEADER_BYTES;
    if (length < 0 || length > maxRecordBytes) {
      return new Bad(offset, "record length " + length + " is outside 0.." + maxRecordBytes, false);
    }
    if (length > left) {
      return new Bad(offset, "a record of " + length + " bytes cut after " + left + " bytes", true);
    }
    byte[] payload = in.readNBytes(length);
    if (WalRecordCodec.checksum(nextIndex, payload) != checksum) {
      boolean tornWrite = restIsZero(left - length);
      String problem =
          length == 0 && checksum == 0 && tornWrite
              ? "zero bytes up to the end of the file"
              : "CRC32C mismatch in record " + nextIndex + " of " + length + " bytes";
      return new Bad(offset, problem, tornWrite);
    }
    offset += WalRecordCodec.HEADER_BYTES + length;
    return new Entry(nextIndex++, payload);
  }

  /**
   * Whether the next {@code bytes} bytes are all zero; consumes them (only called on a bad record).
   */
  private boolean restIsZero(long bytes) throws IOException {
    for (long i = 0; i < bytes; i++) {
      if (in.read() != 0) {
        return false;
      }
    }
    return true;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
