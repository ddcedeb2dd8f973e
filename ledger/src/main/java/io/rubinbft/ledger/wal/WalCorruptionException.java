package io.rubinbft.ledger.wal;

import java.nio.file.Path;

/**
 * A WAL record failed its checks somewhere a torn write cannot explain (before the last record, or
 * in a segment that is not the last). Recovery must not guess past it: the message names the file
 * and the byte offset of the record.
 */
public final class WalCorruptionException extends RuntimeException {

  private final Path file;
  private final long offset;

  public WalCorruptionException(Path file, long offset, String problem) {
    super("WAL corruption in " + file + " at offset " + offset + ": " + problem);
    this.file = file;
    this.offset = offset;
  }

  public Path file() {
    return file;
  }

  public long offset() {
    return offset;
  }
}
