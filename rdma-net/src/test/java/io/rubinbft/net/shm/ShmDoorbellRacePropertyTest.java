package io.rubinbft.net.shm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.rubinbft.net.BackgroundCall;
import io.rubinbft.net.verbs.CompletionOpcode;
import io.rubinbft.net.verbs.CompletionStatus;
import io.rubinbft.net.verbs.VerbsException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The missed-wakeup race: two threads play ping-pong through one pair, each sleeping in its
 * device's event channel with no timeout whenever it finds nothing (and liveness probes an hour
 * apart), so a lost doorbell ring stalls the game for good. A seeded schedule of short gaps before
 * each send (none, a few nanoseconds to microseconds, up to 100 µs) lands sends before, inside and
 * after the sleeper's arm-then-look window; which interleavings occur also depends on the machine,
 * so the test plays many rounds. A minute without progress fails it (a liveness guard, not a speed
 * check); a failure prints the seed and the rounds each side reached. {@code -Dshm.seed=N} replays
 * a schedule.
 */
class ShmDoorbellRacePropertyTest {

  private static final int DEPTH = 4;
  private static final int SLOT = 64;

  @TempDir Path root;

  @Test
  void noRingIsLostWhenSendsLandAroundTheSleep() throws Exception {
    play(2_000);
  }

  @Test
  @Tag("long")
  void noRingIsLostOverManyRounds() throws Exception {
    play(200_000);
  }

  private void play(int rounds) throws Exception {
    String replay = System.getProperty("shm.seed");
    long seed = replay != null ? Long.parseLong(replay) : System.nanoTime();
    System.out.println("ShmDoorbellRacePropertyTest seed=" + seed);
    Random random = new Random(seed);
    long[] pingGaps = gaps(random, rounds);
    long[] pongGaps = gaps(random, rounds);
    ShmOptions options = ShmOptions.defaults(root).withLivenessCheckInterval(Duration.ofHours(1));
    try (ConnectedPair c = ConnectedPair.open(options, DEPTH, SLOT)) {
      AtomicLong pings = new AtomicLong();
      AtomicLong pongs = new AtomicLong();
      CompletableFuture<Void> ponger = onThread(() -> play(c.server, false, pongGaps, pongs));
      CompletableFuture<Void> pinger = onThread(() -> play(c.client, true, pingGaps, pings));
      CompletableFuture<Void> both = CompletableFuture.allOf(pinger, ponger);
      // A side that fails leaves the other waiting for good: report its failure, not a stall.
      for (CompletableFuture<Void> side : List.of(pinger, ponger)) {
        side.exceptionally(
            failure -> {
              both.completeExceptionally(failure);
              return null;
            });
      }
      awaitWhileProgressing(both, pings, pongs, seed, rounds);
      assertThat(pings.get()).as("seed %d", seed).isEqualTo(rounds);
    }
  }

  /** Waits for {@code game}; fails once neither side has moved for a minute (a lost ring). */
  private static void awaitWhileProgressing(
      CompletableFuture<Void> game, AtomicLong pings, AtomicLong pongs, long seed, int rounds)
      throws Exception {
    long seen = -1;
    while (true) {
      try {
        game.get(1, TimeUnit.MINUTES);
        return;
      } catch (TimeoutException e) {
        long now = pings.get() + pongs.get();
        if (now == seen) {
          fail(
              "a wakeup was lost (seed %d): the pinger reached round %d, the ponger %d of %d",
              seed, pings.get(), pongs.get(), rounds);
        }
        seen = now;
      }
    }
  }

  /**
   * Gaps before each send, in nanoseconds: a quarter none, half under 2 µs, a quarter to 100 µs.
   */
  private static long[] gaps(Random random, int rounds) {
    long[] gaps = new long[rounds];
    for (int i = 0; i < rounds; i++) {
      int kind = random.nextInt(4);
      gaps[i] = kind == 0 ? 0 : kind == 3 ? random.nextInt(100_000) : random.nextInt(2_000);
    }
    return gaps;
  }

  /**
   * One side of the game. The pinger sends round r and waits for it back; the ponger waits for
   * round r and sends it back. Every message must be the round expected.
   */
  private static void play(Endpoint side, boolean pinger, long[] gaps, AtomicLong progress)
      throws VerbsException {
    for (int slot = 0; slot < DEPTH; slot++) {
      side.postReceive(slot, (long) slot * SLOT, SLOT);
    }
    long sendOffset = (long) DEPTH * SLOT;
    for (int round = 0; round < gaps.length; round++) {
      if (pinger) {
        send(side, sendOffset, round, gaps[round]);
      }
      long slot = awaitReceive(side);
      long value = side.bytes().get(ValueLayout.JAVA_LONG, slot * SLOT);
      assertThat(value).as("round").isEqualTo(round);
      side.postReceive(slot, slot * SLOT, SLOT);
      if (!pinger) {
        send(side, sendOffset, round, gaps[round]);
      }
      progress.set(round + 1);
    }
  }

  private static void send(Endpoint side, long offset, long round, long gapNanos)
      throws VerbsException {
    long until = System.nanoTime() + gapNanos;
    while (System.nanoTime() - until < 0) {
      Thread.onSpinWait();
    }
    side.bytes().set(ValueLayout.JAVA_LONG, offset, round);
    side.pair.sendRequests().set(0, round, side.memory, offset, Long.BYTES, true, false);
    side.pair.postSend(1);
  }

  /** Sleeps until a receive completes (one message is in flight at a time); returns its slot. */
  private static long awaitReceive(Endpoint side) throws VerbsException {
    List<RecordedCompletion> seen = new ArrayList<>();
    while (true) {
      side.sleepUntilAnything(seen);
      assertThat(seen).allMatch(completion -> completion.status() == CompletionStatus.SUCCESS);
      List<RecordedCompletion> receives =
          seen.stream().filter(c -> c.opcode() == CompletionOpcode.RECEIVE).toList();
      assertThat(receives).hasSizeLessThanOrEqualTo(1);
      if (!receives.isEmpty()) {
        return receives.getFirst().workRequestId();
      }
      seen.clear();
    }
  }

  private static CompletableFuture<Void> onThread(Side side) {
    return BackgroundCall.<Void>start(
            () -> {
              side.play();
              return null;
            })
        .result();
  }

  @FunctionalInterface
  private interface Side {
    void play() throws VerbsException;
  }
}
