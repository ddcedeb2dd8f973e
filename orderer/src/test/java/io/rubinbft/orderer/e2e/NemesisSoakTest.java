package io.rubinbft.orderer.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The nemesis soak (issue 18): the fault suite's cluster under a gateway-style load while a seeded
 * nemesis injects random faults of one node at a time (f = 1 of 4) for {@code -Dnemesis.minutes}
 * (10 by default): kill -9 and restart of the primary or a backup, SIGSTOP/SIGCONT of a backup, a
 * partition of any node, a restart with an empty data folder, a full disk. After each fault no node
 * may have died and no load run may have lost or duplicated anything; at the end the full checks of
 * {@link FaultCluster#checkEverything}. Prints throughput before, during and after the faults, the
 * memory figures and the one-line command that replays the run's seed.
 */
@Tag("long")
@Tag("multiprocess")
class NemesisSoakTest {

  private static final Logger LOG = LoggerFactory.getLogger(NemesisSoakTest.class);

  private static final long SEED = Long.getLong("nemesis.seed", System.nanoTime());
  private static final int MINUTES = Integer.getInteger("nemesis.minutes", 10);

  /** Fault-free load before the first fault and after the last, for the before/after figures. */
  private static final Duration QUIET = Duration.ofSeconds(40);

  private FaultCluster faults;

  @RegisterExtension
  final TestExecutionExceptionHandler nodeLogsOnFailure =
      (context, thrown) -> {
        throw new AssertionError(
            thrown.getMessage()
                + "\nreplay: "
                + replay()
                + "\nnode logs:\n"
                + (faults == null ? "none" : faults.cluster().logs()),
            thrown);
      };

  @Test
  void randomFaultsOfOneNodeAtATime() throws Exception {
    LOG.info("nemesis soak, {} minutes; replay: {}", MINUTES, replay());
    SplittableRandom random = new SplittableRandom(SEED);
    Path dir = Files.createDirectories(Path.of("target", "multiproc")).toAbsolutePath();
    faults = FaultCluster.start(Files.createTempDirectory(dir, "nemesis-"));
    try {
      BackgroundLoad load = faults.load();
      load.start();
      long begin = System.nanoTime();
      Thread.sleep(QUIET.toMillis());
      long faultsBegin = System.nanoTime();
      long end = begin + Duration.ofMinutes(MINUTES).toNanos() - QUIET.toNanos();
      List<String> done = new ArrayList<>();
      while (System.nanoTime() < end) {
        done.add(oneFault(random));
        for (NodeProcess node : faults.cluster().nodes()) {
          assertThat(node.isAlive()).as("%s alive after %s", node.name(), done.getLast()).isTrue();
          assertThat(node.deathsInLog()).as("%s log", node.name()).isEmpty();
        }
        assertThat(load.problems()).as("load runs with problems").isEmpty();
        Thread.sleep(random.nextLong(5_000, 20_000));
      }
      long faultsEnd = System.nanoTime();
      Thread.sleep(QUIET.toMillis());
      long afterEnd = System.nanoTime();
      load.stop();
      faults.checkEverything();
      List<BackgroundLoad.Run> runs = load.runs();
      long submitted = runs.stream().mapToLong(BackgroundLoad.Run::submitted).sum();
      long accepted = runs.stream().mapToLong(BackgroundLoad.Run::accepted).sum();
      LOG.info(
          String.format(
              Locale.ROOT,
              """
              nemesis soak PASSED after %d faults in %.1f minutes: %s
                throughput tx/s  before %.1f  during %.1f  after %.1f
                submitted %d, acknowledged by a quorum %d, lost 0, duplicates 0
                %s
                replay: %s""",
              done.size(),
              (afterEnd - begin) / 60e9,
              done,
              load.rate(begin, faultsBegin),
              load.rate(faultsBegin, faultsEnd),
              load.rate(faultsEnd, afterEnd + 1),
              submitted,
              accepted,
              faults.memoryFigures(),
              replay()));
    } finally {
      faults.close();
    }
  }

  /** Injects and heals one random fault of one node; returns what it was. */
  private String oneFault(SplittableRandom random) throws Exception {
    int kind = random.nextInt(6);
    Duration hold = Duration.ofSeconds(random.nextInt(5, 61));
    NodeProcess backup = faults.backup(faults.diskNode());
    String fault =
        switch (kind) {
          case 0 -> {
            faults.killAndRestart(backup, Duration.ofSeconds(random.nextInt(1, 20)));
            yield "kill -9 backup " + backup.name();
          }
          case 1 -> {
            NodeProcess leader = faults.leader();
            faults.killAndRestart(leader, Duration.ofSeconds(random.nextInt(1, 20)));
            yield "kill -9 primary " + leader.name();
          }
          case 2 -> {
            faults.pauseAndResume(backup, hold);
            yield "kill -STOP " + backup.name() + " " + hold.toSeconds() + " s";
          }
          case 3 -> {
            NodeProcess any = faults.cluster().node(random.nextInt(4));
            faults.isolate(any, hold);
            yield "partition " + any.name() + " " + hold.toSeconds() + " s";
          }
          case 4 -> {
            faults.restartWithEmptyDataFolder(backup);
            yield "empty data folder " + backup.name();
          }
          default -> {
            faults.fillDisk(hold);
            yield "disk full " + faults.diskNode().name() + " " + hold.toSeconds() + " s";
          }
        };
    LOG.info("nemesis: {} done", fault);
    return fault;
  }

  private static String replay() {
    return "./test.sh -pl orderer -am -Plong -Dtest=NemesisSoakTest"
        + " -Dsurefire.failIfNoSpecifiedTests=false -Dnemesis.seed="
        + SEED
        + " -Dnemesis.minutes="
        + MINUTES;
  }
}
