package io.rubinbft.ledger.wal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Opening a WAL: checks every record of every segment, cuts a torn last record off the last
 * segment, and fails on anything else (a bad record elsewhere, a gap between segments).
 */
final class WalRecovery {

  /** A segment file and the index of its first record. */
  record Segment(Path file, long firstIndex) {}

  /**
   * What recovery found.
   *
   * @param segments the segments in index order (empty for a new WAL)
   * @param lastSegmentBytes the valid bytes of the last segment
   * @param nextIndex the index the next appended record gets
   * @param tornTail what was cut off the last segment, if anything
   */
  record Result(
      List<Segment> segments, long lastSegmentBytes, long nextIndex, Optional<TornTail> tornTail) {}

  private WalRecovery() {}

  static Result recover(Path directory, int maxRecordBytes) throws IOException {
    List<Segment> segments = list(directory);
    long expectedFirst = segments.isEmpty() ? 0 : segments.getFirst().firstIndex();
    long lastSegmentBytes = 0;
    Optional<TornTail> tornTail = Optional.empty();
    for (int i = 0; i < segments.size(); i++) {
      Segment segment = segments.get(i);
      if (segment.firstIndex() != expectedFirst) {
        throw new WalCorruptionException(
            segment.file(),
            0,
            "segment starts at record "
                + segment.firstIndex()
                + " but the segment before ends before record "
                + expectedFirst);
      }
      try (WalSegmentReader reader =
          new WalSegmentReader(segment.file(), segment.firstIndex(), maxRecordBytes)) {
        WalSegmentReader.Step end = skipValidRecords(reader);
        if (end instanceof WalSegmentReader.Bad bad) {
          if (i < segments.size() - 1 || !bad.tornWrite()) {
            throw new WalCorruptionException(segment.file(), bad.offset(), bad.problem());
          }
          tornTail = Optional.of(cut(segment.file(), bad));
          lastSegmentBytes = bad.offset();
        } else {
          lastSegmentBytes = ((WalSegmentReader.End) end).offset();
        }
        expectedFirst = reader.nextIndex();
      }
    }
    return new Result(segments, lastSegmentBytes, expectedFirst, tornTail);
  }

  private static WalSegmentReader.Step skipValidRecords(WalSegmentReader reader)
      throws IOException {
    WalSegmentReader.Step step = reader.next();
    while (step instanceof WalSegmentReader.Entry) {
      step = reader.next();
    }
    return step;
  }

  private static TornTail cut(Path file, WalSegmentReader.Bad bad) throws IOException {
    long size = Files.size(file);
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      channel.truncate(bad.offset());
      channel.force(true);
    }
    return new TornTail(file, bad.offset(), size - bad.offset(), bad.problem());
  }

  private static List<Segment> list(Path directory) throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files
          .flatMap(
              file -> WalSegment.firstIndex(file).map(first -> new Segment(file, first)).stream())
          .sorted((a, b) -> Long.compare(a.firstIndex(), b.firstIndex()))
          .toList();
    }
  }
}
