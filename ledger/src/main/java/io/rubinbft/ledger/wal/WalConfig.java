package io.rubinbft.ledger.wal;

import java.nio.file.Path;

/**
 * Where a WAL lives and its limits.
 *
 * @param directory the WAL's own directory (created if missing; nothing else may live in it)
 * @param maxRecordBytes the largest payload {@link Wal#append} accepts
 * @param segmentBytes the size at which the WAL starts a new segment file; truncation drops whole
 *     segments, so this is also the granularity of reclaiming space
 */
public record WalConfig(Path directory, int maxRecordBytes, long segmentBytes) {

  public WalConfig {
    if (maxRecordBytes <= 0 || segmentBytes < WalRecordCodec.HEADER_BYTES + (long) maxRecordBytes) {
      throw new IllegalArgumentException(
          "maxRecordBytes "
              + maxRecordBytes
              + " must be positive and a whole record must fit a segment of "
              + segmentBytes
              + " bytes");
    }
  }

  /** 16 MiB records (a proposal with its block) in 64 MiB segments. */
  public static WalConfig defaults(Path directory) {
    return new WalConfig(directory, 16 * 1024 * 1024, 64L * 1024 * 1024);
  }
}
