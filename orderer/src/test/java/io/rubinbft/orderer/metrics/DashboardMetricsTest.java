package io.rubinbft.orderer.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import io.rubinbft.orderer.cluster.ClusterStats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The Grafana dashboard parses and queries only metrics the orderer exports. */
class DashboardMetricsTest {

  /** Surefire runs in the orderer module's folder; the dashboard lives at the repository root. */
  private static final Path DASHBOARD = Path.of("../deploy/grafana/rubin-orderer-dashboard.json");

  private static final Pattern TOKEN =
      Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*(\\s*\\()?|\\d+(\\.\\d*)?([eE][+-]?\\d+)?");
  private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "bool", "offset");

  @Test
  void everyQueriedMetricIsExported() throws IOException {
    JsonObject dashboard = JsonParser.parseString(Files.readString(DASHBOARD)).getAsJsonObject();
    List<String> expressions = new ArrayList<>();
    for (JsonElement panel : dashboard.getAsJsonArray("panels")) {
      JsonObject object = panel.getAsJsonObject();
      if (object.has("targets")) {
        object
            .getAsJsonArray("targets")
            .forEach(t -> expressions.add(t.getAsJsonObject().get("expr").getAsString()));
      }
    }
    assertThat(expressions).hasSizeGreaterThan(20);
    Set<String> queried = new TreeSet<>();
    expressions.forEach(e -> queried.addAll(metricNames(e)));
    for (JsonElement variable : dashboard.getAsJsonObject("templating").getAsJsonArray("list")) {
      Matcher labelValues =
          Pattern.compile("label_values\\(([a-zA-Z_:][a-zA-Z0-9_:]*)")
              .matcher(variable.getAsJsonObject().get("query").getAsString());
      if (labelValues.find()) {
        queried.add(labelValues.group(1));
      }
    }

    assertThat(queried)
        .contains(
            "ledger_blockchain_height", "jvm_memory_used_bytes", "cluster_net_bytes_sent_total");
    assertThat(exportedSampleNames()).containsAll(queried);
  }

  @Test
  void findsMetricNamesInPromQl() {
    assertThat(
            metricNames(
                "histogram_quantile(0.99, sum by (le, channel) (rate(a_bucket{x=\"y{z}\", le=~\"1e3\"}[1m])))"
                    + " / on (channel) b_total offset 5m - 1e9 * c unless d:e"))
        .containsExactlyInAnyOrder("a_bucket", "b_total", "c", "d:e");
  }

  /** The metric names in a PromQL expression: not functions, labels, keywords or numbers. */
  static Set<String> metricNames(String expression) {
    String bare =
        expression
            .replaceAll("\"(?:[^\"\\\\]|\\\\.)*\"", "\"\"")
            .replaceAll("\\{[^}]*}", "")
            .replaceAll("\\[[^]]*]", "")
            .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", "")
            .replaceAll("\\boffset\\s+\\w+", "");
    Set<String> names = new HashSet<>();
    Matcher token = TOKEN.matcher(bare);
    while (token.find()) {
      String text = token.group();
      boolean function = token.group(1) != null;
      boolean number = Character.isDigit(text.charAt(0));
      if (!function && !number && !KEYWORDS.contains(text)) {
        names.add(text);
      }
    }
    return names;
  }

  /** Every sample name a node's /metrics can hold, from the metrics' own definitions. */
  private static Set<String> exportedSampleNames() {
    OrdererMetrics metrics =
        OrdererMetrics.register(
            List::of,
            List::of,
            () -> new ClusterStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
            Optional::empty,
            "test");
    Set<String> names = new TreeSet<>();
    for (MetricSnapshot snapshot : metrics.registry().scrape()) {
      String name = snapshot.getMetadata().getPrometheusName();
      switch (snapshot) {
        case CounterSnapshot counter ->
            names.add(FabricMetricNames.COUNTERS.contains(name) ? name : name + "_total");
        case HistogramSnapshot histogram ->
            names.addAll(List.of(name + "_bucket", name + "_sum", name + "_count"));
        case SummarySnapshot summary -> names.addAll(List.of(name, name + "_sum", name + "_count"));
        case InfoSnapshot info -> names.add(name + "_info");
        default -> names.add(name);
      }
    }
    return names;
  }
}
