package io.rubinbft.ledger.wal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random sequences of append, sync, truncate, replay and reopen against a list of records. Every
 * run prints its seed; replay one with {@code -Drubin.seed=<seed>}.
 */
class WalPropertyTest {

  private static final int MAX_RECORD = 3000;

  @TempDir Path dir;

  @Test
  void agreesWithAListOfRecords() {
    long seed = Long.getLong("rubin.seed", new Random().nextLong());
    for (int run = 0; run < 3; run++) {
      run(seed + run, 300, dir.resolve("run" + run));
    }
  }

  @Test
  @Tag("long")
  void agreesWithAListOfRecordsOnLongSequences() {
    long seed = Long.getLong("rubin.seed", new Random().nextLong());
    for (int run = 0; run < 10; run++) {
      run(seed + run, 3000, dir.resolve("run" + run));
    }
  }

  private static void run(long seed, int steps, Path path) {
    System.out.println("WalPropertyTest seed " + seed);
    Random random = new Random(seed);
    WalConfig config = new WalConfig(path, MAX_RECORD, MAX_RECORD * 4L + random.nextInt(20_000));
    List<byte[]> records = new ArrayList<>();
    long first = 0;
    Wal wal = Wal.open(config);
    try {
      for (int step = 0; step < steps; step++) {
        int op = random.nextInt(100);
        if (op < 60) {
          byte[] payload = new byte[random.nextInt(MAX_RECORD + 1)];
          random.nextBytes(payload);
          assertThat(wal.append(payload)).as("seed %d", seed).isEqualTo(first + records.size());
          records.add(payload);
        } else if (op < 70) {
          wal.sync();
        } else if (op < 78) {
          long mark = first + random.nextInt(records.size() + 1);
          wal.truncateBefore(mark);
          long kept = wal.firstIndex();
          assertThat(kept).as("seed %d", seed).isBetween(first, mark);
          records.subList(0, (int) (kept - first)).clear();
          first = kept;
        } else if (op < 95) {
          checkReplay(wal, records, first, first + random.nextInt(records.size() + 1), seed);
        } else {
          wal.close();
          wal = Wal.open(config);
          assertThat(wal.tornTail()).as("seed %d", seed).isEmpty();
          assertThat(wal.firstIndex()).as("seed %d", seed).isEqualTo(first);
        }
      }
      checkReplay(wal, records, first, first, seed);
    } finally {
      wal.close();
    }
  }

  private static void checkReplay(Wal wal, List<byte[]> records, long first, long from, long seed) {
    List<byte[]> seen = new ArrayList<>();
    long[] expectedIndex = {from};
    wal.replay(
        from,
        (index, payload) -> {
          assertThat(index).as("seed %d", seed).isEqualTo(expectedIndex[0]++);
          seen.add(payload);
        });
    assertThat(seen)
        .as("seed %d", seed)
        .containsExactlyElementsOf(records.subList((int) (from - first), records.size()));
    assertThat(wal.nextIndex()).isEqualTo(first + records.size());
  }
}
