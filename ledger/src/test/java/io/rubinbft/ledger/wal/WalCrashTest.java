package io.rubinbft.ledger.wal;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.ledger.ChildJvm;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
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
    Path wal = dir.resolve("wal");
    ChildJvm.crashRepeatedly(
        "WalCrashTest",
        crashes,
        CrashingWalAppender.class,
        random -> List.of(wal.toString()),
        50,
        dir,
        (acknowledged, highestAcknowledged, replay) -> {
          try (Wal reopened = Wal.open(CrashingWalAppender.config(wal))) {
            assertThat(reopened.nextIndex()).as(replay).isGreaterThan(highestAcknowledged);
            long[] expected = {0};
            reopened.replay(
                0,
                (index, payload) -> {
                  assertThat(index).as(replay).isEqualTo(expected[0]++);
                  assertThat(payload)
                      .as("%s, record %d", replay, index)
                      .isEqualTo(CrashingWalAppender.payload(index));
                });
            assertThat(expected[0]).isEqualTo(reopened.nextIndex());
          }
        });
  }
}
