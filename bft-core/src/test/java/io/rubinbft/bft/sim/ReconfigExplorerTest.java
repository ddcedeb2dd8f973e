package io.rubinbft.bft.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The reconfiguration explorer ({@link ReconfigExplorer}, bft-core/README.md "Reconfiguration
 * explorer"): 4 -> 5 -> 7 -> 4 with a node cut off during each switch, on the production host.
 * Every violation prints the one-line command that replays it:
 *
 * <pre>
 * ./test.sh -pl bft-core -Dtest='ReconfigExplorerTest#replay' -Dexplorer.reconfig=r1-pbs---6al
 * </pre>
 *
 * Bounds: {@code -Dexplorer.reconfigRuns} (the CI sample), {@code -Dexplorer.from} and {@code
 * -Dexplorer.count} (the long run), {@code -Dexplorer.log} (a file progress is appended to).
 */
class ReconfigExplorerTest {

  private static final String REPLAY =
      "./test.sh -pl bft-core -Dtest='ReconfigExplorerTest#replay' -Dexplorer.reconfig=";

  @Test
  void sampleFindsNoViolation() {
    report(
        ReconfigExplorer.exhaustive(
            Long.getLong("explorer.from", 0),
            Long.getLong("explorer.reconfigRuns", 256),
            ScenarioExplorerTest.log()));
  }

  /** Every scenario, each once, in the scrambled order; prints checkpoints to resume from. */
  @Test
  @Tag("long")
  void exhaustive() {
    report(
        ReconfigExplorer.exhaustive(
            Long.getLong("explorer.from", 0),
            Long.getLong("explorer.count", ReconfigScenario.size()),
            ScenarioExplorerTest.log()));
  }

  @Test
  void replay() {
    String id = System.getProperty("explorer.reconfig");
    assumeTrue(id != null, "-Dexplorer.reconfig=<scenario id> names the scenario to replay");
    String violation = ReconfigExplorer.run(ReconfigScenario.parse(id));
    assertThat(violation).as("scenario " + id).isNull();
  }

  @Test
  void idsRoundTrip() {
    for (long i = 0; i < ReconfigScenario.size(); i += 97) {
      ReconfigScenario scenario = ReconfigScenario.at(i);
      assertThat(ReconfigScenario.parse(scenario.id())).isEqualTo(scenario);
    }
  }

  private static void report(ReconfigExplorer.Result result) {
    ScenarioExplorerTest.log().accept(result.describe());
    String replay = REPLAY + result.failing();
    if (result.failing() != null) {
      System.out.println("replay: " + replay);
    }
    assertThat(result.failing()).as(result.describe() + "; replay: " + replay).isNull();
  }
}
