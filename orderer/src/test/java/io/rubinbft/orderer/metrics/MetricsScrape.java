package io.rubinbft.orderer.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.orderer.node.OrdererNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** Reading a node's metrics as Prometheus does: over HTTP from its operations endpoint, parsed. */
public final class MetricsScrape {

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private MetricsScrape() {}

  /** {@code node}'s {@code /metrics}, parsed. */
  public static Map<String, PrometheusText.Family> of(OrdererNode node)
      throws IOException, InterruptedException {
    URI uri = URI.create("http://127.0.0.1:" + node.operationsAddress().getPort() + "/metrics");
    HttpResponse<String> response =
        HTTP.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    return PrometheusText.parse(response.body());
  }

  /**
   * {@code node}'s metrics once {@code settled} holds for them, or the last scrape after {@code
   * patience} (values read at scrape time may trail what the test saw by a moment).
   */
  public static Map<String, PrometheusText.Family> await(
      OrdererNode node, Predicate<Map<String, PrometheusText.Family>> settled, Duration patience)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + patience.toNanos();
    Map<String, PrometheusText.Family> metrics = of(node);
    while (!settled.test(metrics) && System.nanoTime() < deadline) {
      TimeUnit.MILLISECONDS.sleep(100);
      metrics = of(node);
    }
    return metrics;
  }

  /** The sum of the samples named {@code sample} whose labels include {@code labels}, or 0. */
  public static double value(
      Map<String, PrometheusText.Family> metrics, String sample, Map<String, String> labels) {
    return metrics.values().stream()
        .flatMap(f -> f.value(sample, labels).stream())
        .mapToDouble(Double::doubleValue)
        .sum();
  }

  /** {@code metrics}' registry as a node's /metrics serves it. */
  static String text(OrdererMetrics metrics) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    FabricExposition.write(out, metrics.registry().scrape());
    return out.toString(StandardCharsets.UTF_8);
  }
}
