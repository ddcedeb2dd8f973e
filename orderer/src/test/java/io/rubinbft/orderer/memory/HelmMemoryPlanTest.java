package io.rubinbft.orderer.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The Helm chart's memory: every value set the chart is checked with (its defaults and
 * helm/ci/*.yaml over them) gives a plan whose heap fits its container's memory limit, computed as
 * the launcher computes it in the container, so a node installed with them starts.
 */
class HelmMemoryPlanTest {

  private static final Path CHART = Path.of("../helm/rubin-orderer");
  private static final Path CI = Path.of("../helm/ci");

  @Test
  void everyCheckedValueSetPlansAHeapWithinItsMemoryLimit() throws IOException {
    Map<String, Object> defaults = yaml(CHART.resolve("values.yaml"));
    List<Path> sets;
    try (Stream<Path> files = Files.list(CI)) {
      sets = files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
    }
    assertThat(sets).isNotEmpty();
    for (Path set : sets) {
      Map<String, Object> values = new HashMap<>(defaults);
      values.putAll(yaml(set));
      Map<String, String> environment = launcherEnvironment(values);

      String option = HeapSize.launcherOption(environment, Path.of("/nonexistent"), false);

      assertThat(option)
          .as("%s: %s", set, environment)
          .matches("-Xmx\\d+m -XX:MaxDirectMemorySize=\\d+m");
    }
  }

  @Test
  void theChartPassesThePlanToTheLauncherAndNoHeapOfItsOwn() throws IOException {
    String statefulSets = Files.readString(CHART.resolve("templates/statefulsets.yaml"));

    assertThat(statefulSets)
        .contains("name: RUBIN_CHANNELS", "$.Values.memoryPlan.channels")
        .contains("name: RUBIN_BLOCK_MAX_BYTES", "$.Values.memoryPlan.blockMaxBytes")
        .contains("name: RUBIN_CONSENTERS", "len $.Values.nodes")
        .doesNotContain("MaxRAMPercentage");
  }

  /** What the chart's StatefulSet gives the launcher, and the limit the container's cgroup has. */
  @SuppressWarnings("unchecked")
  private static Map<String, String> launcherEnvironment(Map<String, Object> values) {
    Map<String, Object> plan = (Map<String, Object>) values.get("memoryPlan");
    Map<String, Object> resources = (Map<String, Object>) values.get("resources");
    Map<String, Object> limits = (Map<String, Object>) resources.get("limits");
    return Map.of(
        "RUBIN_CHANNELS", String.valueOf(plan.get("channels")),
        "RUBIN_BLOCK_MAX_BYTES", String.valueOf(plan.get("blockMaxBytes")),
        "RUBIN_CONSENTERS", String.valueOf(((List<?>) values.get("nodes")).size()),
        "RUBIN_MEMORY_LIMIT", String.valueOf(limits.get("memory")));
  }

  private static Map<String, Object> yaml(Path file) throws IOException {
    Map<String, Object> values = new Yaml().load(Files.readString(file));
    return values == null ? Map.of() : values;
  }
}
