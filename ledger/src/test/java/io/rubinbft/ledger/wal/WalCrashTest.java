package io.rubinbft.ledger.wal;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.ledger.ChildJvm;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 at seeded random moments while a child JVM appends and syncs records: after each crash
 * the WAL opens, every acknowledged record is there with its bytes, and every record it holds is
 * intact. Replay a run with {@code -Drubin.seed=<seed>}.
 */
class WalCrashTest {

  @TempDir Path dir;

  @Test
  void everyAcknowledgedRecordSurvivesKillDashNine() throws IOException, InterruptedException {
    crashRepeatedly(3);
  }

  @Test
  @Tag("long")
  void everyAcknowledgedRecordSurvivesManyKills() throws IOException, InterruptedException {
    crashRepeatedly(30);
  }

  private void crashRepeatedly(int crashes) throws IOException, InterruptedException {
    long seed = Long.getLong("rubin.seed", new Random().nextLong());
    System.out.println("WalCrashTest seed " + seed);
    Random random = new Random(seed);
    Path wal = dir.resolve("wal");
    long highestAcknowledged = -1;
    for (int crash = 0; crash < crashes; crash++) {
      List<Long> acknowledged =
          ChildJvm.runAndKill(
              CrashingWalAppender.class,
              List.of(wal.toString()),
              1 + random.nextInt(50),
              random,
              dir.resolve("stderr.txt"));
      highestAcknowledged = Math.max(highestAcknowledged, acknowledged.getLast());
      try (Wal reopened = Wal.open(CrashingWalAppender.config(wal))) {
        assertThat(reopened.nextIndex()).as("seed %d", seed).isGreaterThan(highestAcknowledged);
        long[] expected = {0};
        reopened.replay(
            0,
            (index, payload) -> {
              assertThat(index).as("seed %d", seed).isEqualTo(expected[0]++);
              assertThat(payload)
                  .as("seed %d, record %d", seed, index)
                  .isEqualTo(CrashingWalAppender.payload(index));
            });
        assertThat(expected[0]).isEqualTo(reopened.nextIndex());
      }
    }
  }
}
