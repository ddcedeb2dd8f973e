package io.rubinbft.ledger.wal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The segment file records are appended to. Its name is the index of its first record, zero padded
 * so that names sort in index order.
 */
final class WalSegment implements AutoCloseable {

  private static final Pattern NAME = Pattern.compile("(\\d{20})\\.wal");

  private final Path file;
  private final long firstIndex;
  private final FileChannel channel;
  private long size;
  private long nextIndex;

  private WalSegment(Path file, long firstIndex, FileChannel channel, long size, long nextIndex) {
    this.file = file;
    this.firstIndex = firstIndex;
    this.channel = channel;
    this.size = size;
    this.nextIndex = nextIndex;
  }

  static Path path(Path directory, long firstIndex) {
    return directory.resolve(String.format("%020d.wal", firstIndex));
  }

  static Optional<Long> firstIndex(Path file) {
    Matcher matcher = NAME.matcher(file.getFileName().toString());
    return matcher.matches() ? Optional.of(Long.parseLong(matcher.group(1))) : Optional.empty();
  }

  static WalSegment create(Path directory, long firstIndex) throws IOException {
    Path file = path(directory, firstIndex);
    FileChannel channel =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    return new WalSegment(file, firstIndex, channel, 0, firstIndex);
  }

  /** Reopens a recovered segment for appending after its {@code size} valid bytes. */
  static WalSegment reopen(Path file, long firstIndex, long size, long nextIndex)
      throws IOException {
    FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE);
    channel.position(size);
    return new WalSegment(file, firstIndex, channel, size, nextIndex);
  }

  Path file() {
    return file;
  }

  long firstIndex() {
    return firstIndex;
  }

  long nextIndex() {
    return nextIndex;
  }

  boolean isEmpty() {
    return size == 0;
  }

  boolean fits(int payloadBytes, long segmentBytes) {
    return size + WalRecordCodec.HEADER_BYTES + payloadBytes <= segmentBytes;
  }

  /** Writes one record (header and payload in one gathering write) and returns its index. */
  long append(byte[] payload) throws IOException {
    long index = nextIndex;
    ByteBuffer[] record = {WalRecordCodec.header(index, payload), ByteBuffer.wrap(payload)};
    long expected = WalRecordCodec.HEADER_BYTES + (long) payload.length;
    long written = 0;
    while (written < expected) {
      written += channel.write(record);
    }
    size += expected;
    nextIndex++;
    return index;
  }

  void force() throws IOException {
    channel.force(false);
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
