package io.rubinbft.ledger.wal;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.testdata.fuzz.Fuzzer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fuzzing of the consensus WAL as recovery finds it on disk (README "Fuzzing"): a segment file
 * written by the WAL, then corrupted or cut. Opening either recovers records that are exactly the
 * ones written at their indices (a torn tail cut off) or fails with a {@link
 * WalCorruptionException} that names the file and offset; nothing else, and a lying record length
 * allocates nothing beyond the bytes on disk.
 */
class WalFuzzTest {

  private static final int RECORDS = 6;

  @TempDir Path dir;

  @Test
  void corruptedSegmentsRecoverWrittenRecordsOrFailPrecisely() throws IOException {
    List<byte[]> written = new ArrayList<>();
    for (int i = 0; i < RECORDS; i++) {
      byte[] payload = new byte[i * i * 40];
      Arrays.fill(payload, (byte) (i + 1));
      written.add(payload);
    }
    byte[] segment = segmentOf(written);
    List<byte[]> samples =
        List.of(segment, Arrays.copyOf(segment, segment.length / 2), new byte[0]);
    Path wal = dir.resolve("wal");
    WalConfig config = WalConfig.defaults(wal);
    Fuzzer.of("ledger WAL segment recovery", samples)
        .inputs(1_000)
        .allocationLimit(1 << 20, 16)
        .run(
            (bytes, random) -> {
              clear(wal);
              Files.createDirectories(wal);
              Files.write(WalSegment.path(wal, 0), bytes);
              List<byte[]> recovered = new ArrayList<>();
              try (Wal opened = Wal.open(config)) {
                opened.replay(0, (index, payload) -> recovered.add(payload));
              } catch (WalCorruptionException e) {
                assertThat(e.file()).isEqualTo(WalSegment.path(wal, 0));
                return false;
              }
              assertThat(recovered.size()).isLessThanOrEqualTo(RECORDS);
              for (int i = 0; i < recovered.size(); i++) {
                assertThat(recovered.get(i)).as("record %d", i).isEqualTo(written.get(i));
              }
              return true;
            });
  }

  private byte[] segmentOf(List<byte[]> payloads) throws IOException {
    Path written = dir.resolve("written");
    try (Wal wal = Wal.open(WalConfig.defaults(written))) {
      payloads.forEach(wal::append);
      wal.sync();
    }
    return Files.readAllBytes(WalSegment.path(written, 0));
  }

  private static void clear(Path folder) throws IOException {
    if (!Files.exists(folder)) {
      return;
    }
    try (Stream<Path> files = Files.list(folder)) {
      for (Path file : files.toList()) {
        Files.delete(file);
      }
    }
  }
}
