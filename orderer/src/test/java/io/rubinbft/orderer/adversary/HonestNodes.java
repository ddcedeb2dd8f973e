package io.rubinbft.orderer.adversary;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.orderer.e2e.ClusterUnderAttack;
import io.rubinbft.orderer.memory.HeapSize;
import io.rubinbft.orderer.memory.MemoryBudgets;
import io.rubinbft.orderer.metrics.PrometheusText;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What must hold for every honest node after each attack: its process is alive, no thread it needs
 * died (its log has no uncaught exception, no stopped network or replica, no heap or direct memory
 * exhaustion), {@code /healthz} answers 200 within 10 s, and its heap and direct memory, read from
 * its {@code /metrics}, are within the launcher's budget (the heap of its default plan, 64 MiB of
 * direct buffers: the rings of its links and Netty's).
 */
final class HonestNodes {

  /** The launcher's heap ceiling (NodeProcess.useLauncherMemory). */
  static final long HEAP_BUDGET =
      HeapSize.need(HeapSize.Plan.DEFAULT, MemoryBudgets.standard()).heapBytes();

  /** Direct memory a node may hold: its links' rings and Netty's buffers, with room to spare. */
  static final long DIRECT_BUDGET = 64L << 20;

  /** Log lines that mean a thread the node needs died or the JVM ran out of memory. */
  private static final List<String> FATAL =
      List.of(
          "Exception in thread",
          "OutOfMemoryError",
          "cluster network stopped",
          "replica of channel mychannel stopped");

  private final ClusterUnderAttack cluster;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  HonestNodes(ClusterUnderAttack cluster) {
    this.cluster = cluster;
  }

  /** Asserts everything above for every honest node, naming {@code attack} on failure. */
  void assertUnharmed(String attack) throws IOException, InterruptedException {
    for (int index : cluster.honest()) {
      String node = attack + ": node " + index + " (log " + cluster.log(index) + ")";
      assertThat(cluster.alive(index)).as("%s is alive", node).isTrue();
      for (String line : Files.readAllLines(cluster.log(index), StandardCharsets.UTF_8)) {
        for (String fatal : FATAL) {
          assertThat(line)
              .as("%s logged a dead thread or exhausted memory", node)
              .doesNotContain(fatal);
        }
      }
      assertThat(healthz(index)).as("%s /healthz", node).isEqualTo(200);
      Map<String, PrometheusText.Family> metrics = metrics(index);
      assertThat(sample(metrics, "jvm_memory_used_bytes", Map.of("area", "heap")))
          .as("%s heap used", node)
          .hasValueSatisfying(heap -> assertThat(heap).isLessThanOrEqualTo((double) HEAP_BUDGET));
      assertThat(sample(metrics, "jvm_buffer_pool_used_bytes", Map.of("pool", "direct")))
          .as("%s direct buffers used", node)
          .hasValueSatisfying(direct -> assertThat(direct).isLessThanOrEqualTo(DIRECT_BUDGET));
    }
  }

  /** Asserts that no honest node's log has a line containing {@code text}. */
  void assertNotLogged(String text) throws IOException {
    for (int index : cluster.honest()) {
      for (String line : Files.readAllLines(cluster.log(index), StandardCharsets.UTF_8)) {
        assertThat(line).as("node %d (log %s)", index, cluster.log(index)).doesNotContain(text);
      }
    }
  }

  /** The sample of {@code family} with {@code labels} on node {@code index}, 0 when it has none. */
  double sample(int index, String family, Map<String, String> labels)
      throws IOException, InterruptedException {
    return sample(metrics(index), family, labels).orElse(0.0);
  }

  int healthz(int index) throws IOException, InterruptedException {
    return http.send(
            HttpRequest.newBuilder(operations(index, "/healthz"))
                .timeout(Duration.ofSeconds(10))
                .GET()
                .build(),
            HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }

  private Map<String, PrometheusText.Family> metrics(int index)
      throws IOException, InterruptedException {
    return PrometheusText.parse(
        http.send(
                HttpRequest.newBuilder(operations(index, "/metrics"))
                    .timeout(Duration.ofSeconds(10))
                    .GET()
                    .build(),
                HttpResponse.BodyHandlers.ofString())
            .body());
  }

  private static Optional<Double> sample(
      Map<String, PrometheusText.Family> metrics, String name, Map<String, String> labels) {
    PrometheusText.Family family =
        metrics.getOrDefault(name, metrics.get(name.replaceFirst("_total$", "")));
    return family == null ? Optional.empty() : family.value(name, labels);
  }

  private URI operations(int index, String path) {
    return URI.create(
        "http://127.0.0.1:" + cluster.network().nodes().get(index).operationsPort() + path);
  }
}
