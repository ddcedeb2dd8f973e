package io.rubinbft.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
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
    long seed = Long.getLong("rubin.seed", new Random().nextLong());
    System.out.println("BlockStoreCrashTest seed " + seed);
    Random random = new Random(seed);
    Path store = dir.resolve("store");
    long highestAcknowledged = -1;
    for (int crash = 0; crash < crashes; crash++) {
      List<Long> acknowledged =
          ChildJvm.runAndKill(
              CrashingBlockAppender.class,
              List.of(store.toString(), Long.toString(random.nextLong())),
              1 + random.nextInt(10),
              random,
              dir.resolve("stderr.txt"));
      highestAcknowledged = Math.max(highestAcknowledged, acknowledged.getLast());
      try (BlockStore reopened = BlockStore.open(BlockStoreConfig.defaults(store))) {
        ChannelLedger ledger = reopened.channel(CrashingBlockAppender.CHANNEL).orElseThrow();
        ChainVerification verification = ChainVerifier.verify(ledger);
        assertThat(verification.problem()).as("seed %d, crash %d", seed, crash).isEmpty();
        assertThat(ledger.height()).as("seed %d", seed).isGreaterThan(highestAcknowledged);
        for (long number : acknowledged) {
          assertThat(ledger.block(number)).as("seed %d, block %d", seed, number).isPresent();
        }
      }
    }
  }
}
