package io.rubinbft.orderer.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

class PrometheusTextTest {

  @Test
  void readsTheFormatsExample() {
    String text =
        """
        # A comment that is neither HELP nor TYPE
        # HELP http_requests_total The total number of HTTP requests.\\nSecond line with \\\\.
        # TYPE http_requests_total counter
        http_requests_total{method="post",code="200"} 1027 1395066363000
        http_requests_total{method="post",code="400"}    3 1395066363000

        msdos_file_access_time_seconds{path="C:\\\\DIR\\\\FILE.TXT",error="Cannot find file:\\n\\"FILE.TXT\\""} 1.458255915e9
        metric_without_timestamp_and_labels 12.47
        something_weird{problem="division by zero"} +Inf -3982045
        # TYPE http_request_duration_seconds histogram
        http_request_duration_seconds_bucket{le="0.05"} 24054
        http_request_duration_seconds_bucket{le="0.1"} 33444
        http_request_duration_seconds_bucket{le="+Inf"} 144320
        http_request_duration_seconds_sum 53423
        http_request_duration_seconds_count 144320
        """;
    Map<String, PrometheusText.Family> families = PrometheusText.parse(text);

    PrometheusText.Family requests = families.get("http_requests_total");
    assertThat(requests.type()).isEqualTo("counter");
    assertThat(requests.help())
        .isEqualTo("The total number of HTTP requests.\nSecond line with \\.");
    assertThat(requests.value("http_requests_total", Map.of("code", "400"))).contains(3.0);
    assertThat(requests.value("http_requests_total", Map.of())).contains(1030.0);
    PrometheusText.Family file = families.get("msdos_file_access_time_seconds");
    assertThat(file.type()).isEqualTo("untyped");
    assertThat(file.samples().getFirst().labels())
        .containsEntry("path", "C:\\DIR\\FILE.TXT")
        .containsEntry("error", "Cannot find file:\n\"FILE.TXT\"");
    assertThat(file.samples().getFirst().value()).isEqualTo(1.458255915e9);
    assertThat(families.get("something_weird").samples().getFirst().value())
        .isEqualTo(Double.POSITIVE_INFINITY);
    PrometheusText.Family histogram = families.get("http_request_duration_seconds");
    assertThat(histogram.samples()).hasSize(5);
    assertThat(histogram.value("http_request_duration_seconds_bucket", Map.of("le", "0.1")))
        .contains(33444.0);
  }

  @Test
  void rejectsWhatTheFormatForbids() {
    Map<String, String> broken =
        Map.of(
            "x{a=\"1\"} 1\nx{a=\"1\"} 2", "appears twice",
            "x{a=\"1} 1", "not closed",
            "x{a=\"\\t\"} 1", "unknown escape",
            "x{1a=\"1\"} 1", "label name",
            "x 1 2 3", "unexpected text",
            "x one", "not a number",
            "x 1\n# TYPE x gauge", "after its samples",
            "# TYPE x meter\nx 1", "unknown type",
            "# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\nh_count 1",
                "not cumulative",
            "# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_count 2", "no +Inf bucket");
    broken.forEach(
        (text, message) ->
            assertThatThrownBy(() -> PrometheusText.parse(text))
                .as(text)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message));
  }

  /**
   * Whatever the Prometheus Java client writes, with random label values (quotes, backslashes, line
   * breaks, non-ASCII) and values, parses back to the same values.
   */
  @RepeatedTest(20)
  void readsBackWhatThePrometheusClientWrites() throws IOException {
    long seed = new Random().nextLong();
    System.out.println("PrometheusTextTest seed " + seed);
    Random random = new Random(seed);
    PrometheusRegistry registry = new PrometheusRegistry();
    Counter counter =
        Counter.builder().name("c").help("a \\ counter\nhelp").labelNames("l").register(registry);
    Gauge gauge = Gauge.builder().name("g").help("gauge").labelNames("l", "m").register(registry);
    Histogram histogram =
        Histogram.builder()
            .name("h")
            .help("histogram")
            .labelNames("l")
            .classicOnly()
            .classicUpperBounds(0.1, 1, 10)
            .register(registry);
    Map<String, Double> counters = new HashMap<>();
    Map<String, Double> gauges = new HashMap<>();
    for (int i = 0; i < 10; i++) {
      String label = randomText(random);
      double amount = random.nextInt(1000) / 8.0;
      counter.labelValues(label).inc(amount);
      counters.merge(label, amount, Double::sum);
      double value = random.nextBoolean() ? random.nextGaussian() * 1e12 : -random.nextDouble();
      gauge.labelValues(label, "m" + i).set(value);
      gauges.put(label + "/m" + i, value);
      histogram.labelValues(label).observe(random.nextDouble() * 20);
    }

    Map<String, PrometheusText.Family> families = PrometheusText.parse(write(registry));

    counters.forEach(
        (label, total) ->
            assertThat(families.get("c_total").value("c_total", Map.of("l", label)))
                .contains(total));
    gauges.forEach(
        (key, value) -> {
          String[] parts = key.split("/m", -1);
          assertThat(families.get("g").value("g", Map.of("l", parts[0], "m", "m" + parts[1])))
              .contains(value);
        });
    assertThat(families.get("c_total").help()).isEqualTo("a \\ counter\nhelp");
    assertThat(families.get("h").value("h_count", Map.of())).contains(10.0);
  }

  private static String randomText(Random random) {
    List<String> pieces = List.of("a", "Z", "\"", "\\", "\n", "ü", "{", "}", ",", "=", " ", "0");
    StringBuilder text = new StringBuilder();
    for (int i = random.nextInt(6); i >= 0; i--) {
      text.append(pieces.get(random.nextInt(pieces.size())));
    }
    return text.toString();
  }

  private static String write(PrometheusRegistry registry) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrometheusTextFormatWriter.create().write(out, registry.scrape(), EscapingScheme.DEFAULT);
    return out.toString(StandardCharsets.UTF_8);
  }
}
