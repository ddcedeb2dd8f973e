package io.rubinbft.bft.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The systematic scenario search ({@link ScenarioExplorer}, bft-core/README.md "Scenario
 * explorer"). Every violation prints its scenario, what happened round by round, and the one-line
 * command that replays it:
 *
 * <pre>
 * ./test.sh -pl bft-core -Dtest='ScenarioExplorerTest#replay' -Dexplorer.replay=x-00111202404111202d
 * </pre>
 *
 * Bounds: {@code -Dexplorer.runs}, {@code -Dexplorer.rounds}, {@code -Dexplorer.headers} ("all" or
 * ids such as "x,3t"); the long run: {@code -Dexplorer.from}, {@code -Dexplorer.count}, {@code
 * -Dexplorer.log} (a file its progress and checkpoints are appended to while it runs).
 */
class ScenarioExplorerTest {

  private static final String REPLAY =
      "./test.sh -pl bft-core -Dtest='ScenarioExplorerTest#replay' -Dexplorer.replay=";

  /**
   * The fork hunt, and the explorer's planted-bug check: best-first toward two digests with a
   * quorum of commit signatures at one sequence, checking only (1) agreement and (2) unique
   * certificate. With commits that do not bind their view it finds a fork without any Byzantine
   * replica within about 2,000 scenarios.
   */
  @Test
  void searchFindsNoFork() {
    List<Scenario> headers = Scenario.headers(System.getProperty("explorer.headers", "x,3s"));
    long runs = Long.getLong("explorer.runs", 2_500);
    for (Scenario header : headers) {
      report(
          ScenarioExplorer.search(
              List.of(header), Integer.getInteger("explorer.rounds", 6), runs, log()),
          true);
    }
  }

  /**
   * Every invariant, liveness after the heal included: the first scenarios of the scrambled order
   * of all 4-round scenarios, so every adversary (twins most, as they have the most rounds).
   */
  @Test
  void sampleFindsNoViolation() {
    report(
        ScenarioExplorer.exhaustive(
            Integer.getInteger("explorer.rounds", 4),
            Long.getLong("explorer.from", 0),
            Long.getLong("explorer.runs", 3_000),
            false,
            log()),
        false);
  }

  /** Every scenario of a fixed number of rounds, each once; prints a checkpoint to resume from. */
  @Test
  @Tag("long")
  void exhaustive() {
    report(
        ScenarioExplorer.exhaustive(
            Integer.getInteger("explorer.rounds", 4),
            Long.getLong("explorer.from", 0),
            Long.getLong("explorer.count", 1_000_000),
            Boolean.getBoolean("explorer.keepGoing"),
            log()),
        false);
  }

  @Test
  void replay() {
    String id = System.getProperty("explorer.replay");
    assumeTrue(id != null, "-Dexplorer.replay=<scenario id> names the scenario to replay");
    String explained =
        ScenarioRunner.explain(Scenario.parse(id), Boolean.getBoolean("explorer.forks"));
    System.out.println(explained);
    assertThat(explained).as("scenario " + id).endsWith("no violation");
  }

  @Test
  void idsRoundTrip() {
    ScenarioExplorer.Space space = new ScenarioExplorer.Space(3);
    for (long i = 0; i < 2_000; i += 7) {
      Scenario scenario = space.at(i);
      assertThat(Scenario.parse(scenario.id())).isEqualTo(scenario);
    }
  }

  /**
   * Progress lines go to standard output and, with {@code -Dexplorer.log=<file>}, are appended to
   * that file as they come: Surefire keeps a test's output in a buffer, and a long run's
   * checkpoints must be readable while it runs.
   */
  static Consumer<String> log() {
    String file = System.getProperty("explorer.log");
    return line -> {
      System.out.println("explorer: " + line);
      if (file != null) {
        try {
          Files.writeString(
              Path.of(file),
              "explorer: " + line + System.lineSeparator(),
              StandardOpenOption.CREATE,
              StandardOpenOption.APPEND);
        } catch (IOException e) {
          throw new UncheckedIOException("cannot append to -Dexplorer.log=" + file, e);
        }
      }
    };
  }

  private static void report(ScenarioExplorer.Result result, boolean forksOnly) {
    log().accept(result.describe());
    String replay = REPLAY + result.failing() + (forksOnly ? " -Dexplorer.forks=true" : "");
    if (result.failing() != null) {
      System.out.println(ScenarioRunner.explain(Scenario.parse(result.failing()), forksOnly));
      System.out.println("replay: " + replay);
    }
    assertThat(result.failing()).as(result.describe() + "; replay: " + replay).isNull();
  }
}
