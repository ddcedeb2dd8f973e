package io.rubinbft.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 at seeded random moments while a child JVM appends synced blocks: after each crash the
 * store opens, its chain verifies, and every acknowledged block is there. Replay a run with {@code
 * -Drubin.seed=<seed>}.
 */
class BlockStoreCrashTest {

  @TempDir Path dir;

  @Test
  void everyAcknowledgedBlockSurvivesKillDashNine() throws IOException, InterruptedException {
    crashRepeatedly(3);
  }

  @Test
  @Tag("long")
  void everyAcknowledgedBlockSurvivesManyKills() throws IOException, InterruptedException {
    crashRepeatedly(30);
  }

  private void crashRepeatedly(int crashes) throws IOException, InterruptedException {
    Path store = dir.resolve("store");
    ChildJvm.crashRepeatedly(
        "BlockStoreCrashTest",
        crashes,
        CrashingBlockAppender.class,
        random -> List.of(store.toString(), Long.toString(random.nextLong())),
        10,
        dir,
        (acknowledged, highestAcknowledged, replay) -> {
          try (BlockStore reopened = BlockStore.open(BlockStoreConfig.defaults(store))) {
            ChannelLedger ledger = reopened.channel(CrashingBlockAppender.CHANNEL).orElseThrow();
            ChainVerification verification = ChainVerifier.verify(ledger);
            assertThat(verification.problem()).as(replay).isEmpty();
            assertThat(ledger.height()).as(replay).isGreaterThan(highestAcknowledged);
            for (long number : acknowledged) {
              assertThat(ledger.block(number)).as("%s, block %d", replay, number).isPresent();
            }
          }
        });
  }
}
