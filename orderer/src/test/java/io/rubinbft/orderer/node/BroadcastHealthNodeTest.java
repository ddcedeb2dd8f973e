package io.rubinbft.orderer.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.orderer.memory.NodeMemory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The node-wide "broadcast" check seen over HTTP, as a probe sees it: a node started with Fabric's
 * Broadcast throttling ({@code General.Throttling.Rate}) answers {@code /healthz} 200 while its
 * throttle refills the budgets, and 503 naming "broadcast" and why once the refilling thread ended
 * (here its clock failed), since every throttled client would then wait for ever. The Helm chart's
 * probes, which leave out only "channels", fail too.
 */
class BroadcastHealthNodeTest {

  private static final Duration PATIENCE = Duration.ofSeconds(30);

  @TempDir Path dir;

  @AutoClose private LocalCluster cluster;

  @Test
  void aThrottleWhoseRefillsStoppedFailsTheBroadcastCheck() throws Exception {
    cluster = LocalCluster.generate(dir);
    StoppableClock clock = new StoppableClock();
    OrdererNode node =
        cluster.startFirst(
            NodeMemory.standard(), Map.of("ORDERER_GENERAL_THROTTLING_RATE", "100"), clock);

    HttpResponse<String> healthy = healthz(node, "");
    assertThat(healthy.statusCode()).as(healthy.body()).isEqualTo(200);

    clock.stop();
    HttpResponse<String> failed = awaitUnhealthy(node);
    assertThat(failed.statusCode()).as(failed.body()).isEqualTo(503);
    assertThat(failed.body())
        .contains(
            "{\"component\":\"broadcast\",\"reason\":\"throttle refills stopped:"
                + " java.lang.IllegalStateException: the clock was stopped\"}");
    HttpResponse<String> probed = healthz(node, "?exclude=channels");
    assertThat(probed.statusCode()).as(probed.body()).isEqualTo(503);
    assertThat(probed.body()).contains("\"component\":\"broadcast\"");
  }

  private static HttpResponse<String> awaitUnhealthy(OrdererNode node) throws Exception {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    HttpResponse<String> health = healthz(node, "");
    while (health.statusCode() == 200 && System.nanoTime() < deadline) {
      Thread.sleep(100);
      health = healthz(node, "");
    }
    return health;
  }

  private static HttpResponse<String> healthz(OrdererNode node, String query) throws Exception {
    URI uri =
        URI.create("http://127.0.0.1:" + node.operationsAddress().getPort() + "/healthz" + query);
    try (HttpClient http = HttpClient.newHttpClient()) {
      return http.send(
          HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
    }
  }

  /** The system clock until {@link #stop}; from then on every reading fails. */
  private static final class StoppableClock extends Clock {

    private volatile boolean stopped;

    void stop() {
      stopped = true;
    }

    @Override
    public ZoneId getZone() {
      return Clock.systemUTC().getZone();
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      if (stopped) {
        throw new IllegalStateException("the clock was stopped");
      }
      return Clock.systemUTC().instant();
    }
  }
}
