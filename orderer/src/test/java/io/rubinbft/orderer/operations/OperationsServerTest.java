package io.rubinbft.orderer.operations;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.rubinbft.orderer.config.HostPort;
import io.rubinbft.orderer.config.OperationsSettings;
import io.rubinbft.orderer.config.TlsSettings;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class OperationsServerTest {

  private static final Instant NOW = Instant.parse("2026-11-21T06:00:00Z");

  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final HealthChecks health = new HealthChecks();
  private final LogLevels logLevels = new LogLevels("info");
  private final HttpClient client = HttpClient.newHttpClient();
  private OperationsServer server;

  @BeforeEach
  void start() throws IOException {
    OperationsSettings settings =
        new OperationsSettings(new HostPort("127.0.0.1", 0), TlsSettings.plaintext(), true);
    server =
        OperationsServer.start(
            settings,
            registry,
            health,
            logLevels,
            new VersionInfo("1.2.3", "abc"),
            Clock.fixed(NOW, ZoneOffset.UTC));
  }

  @AfterEach
  void stop() {
    server.close();
    client.close();
  }

  @Test
  void healthzIsOkWhenEveryCheckPasses() throws Exception {
    health.register("ledger", Optional::empty);

    HttpResponse<String> response = get("/healthz");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body())
        .isEqualTo("{\"status\":\"OK\",\"time\":\"2026-11-21T06:00:00Z\"}\n");
  }

  @Test
  void healthzIs503WithTheFailingChecks() throws Exception {
    health.register("ledger", Optional::empty);
    health.register("consensus", () -> Optional.of("no leader for 30s in channel 'mychannel'"));
    health.register(
        "cluster",
        () -> {
          throw new IllegalStateException("boom");
        });

    HttpResponse<String> response = get("/healthz");

    assertThat(response.statusCode()).isEqualTo(503);
    JsonObject body = JsonParser.parseString(response.body()).getAsJsonObject();
    assertThat(body.get("status").getAsString()).isEqualTo("Service Unavailable");
    assertThat(body.getAsJsonArray("failed_checks").toString())
        .isEqualTo(
            "[{\"component\":\"cluster\",\"reason\":\"health check failed:"
                + " java.lang.IllegalStateException: boom\"},"
                + "{\"component\":\"consensus\",\"reason\":\"no leader for 30s in channel"
                + " 'mychannel'\"}]");
  }

  @Test
  void healthzLeavesOutTheExcludedChecks() throws Exception {
    health.register("ledger", Optional::empty);
    health.register("channels", () -> Optional.of("channel 'mychannel': following stopped"));
    health.register("consensus", () -> Optional.of("channel 'other': replica stopped"));

    assertThat(get("/healthz?exclude=channels&exclude=consensus").statusCode()).isEqualTo(200);
    HttpResponse<String> partly = get("/healthz?exclude=channels");
    assertThat(partly.statusCode()).isEqualTo(503);
    assertThat(JsonParser.parseString(partly.body()).getAsJsonObject().get("failed_checks"))
        .hasToString(
            "[{\"component\":\"consensus\",\"reason\":\"channel 'other': replica stopped\"}]");
  }

  @Test
  void healthzRefusesAnUnknownCheckOrParameter() throws Exception {
    health.register("ledger", Optional::empty);
    health.register("channels", Optional::empty);

    HttpResponse<String> unknownCheck = get("/healthz?exclude=disk");
    assertThat(unknownCheck.statusCode()).isEqualTo(400);
    assertThat(unknownCheck.body())
        .contains("cannot exclude 'disk': the checks are [channels, ledger]");
    HttpResponse<String> unknownParameter = get("/healthz?verbose=1");
    assertThat(unknownParameter.statusCode()).isEqualTo(400);
    assertThat(unknownParameter.body())
        .contains("unknown query parameter 'verbose': /healthz only takes exclude=<check>");
  }

  @Test
  void versionHasFabricsShape() throws Exception {
    assertThat(get("/version").body()).isEqualTo("{\"CommitSHA\":\"abc\",\"Version\":\"1.2.3\"}\n");
  }

  @Test
  void logspecReadsAndChangesLevelsAtRunTime() throws Exception {
    assertThat(get("/logspec").body()).isEqualTo("{\"spec\":\"info\"}\n");

    HttpResponse<String> put = put("/logspec", "{\"spec\":\"warn:io.rubinbft.bft,grpc=debug\"}");

    assertThat(put.statusCode()).isEqualTo(204);
    assertThat(get("/logspec").body())
        .isEqualTo("{\"spec\":\"warn:io.rubinbft.bft,grpc=debug\"}\n");
    assertThat(Logger.getLogger("io.rubinbft.bft.view").isLoggable(Level.FINE)).isTrue();
    assertThat(Logger.getLogger("io.rubinbft.ledger").isLoggable(Level.INFO)).isFalse();
  }

  @Test
  void aBadLogspecIsRejectedAndChangesNothing() throws Exception {
    HttpResponse<String> put = put("/logspec", "{\"spec\":\"info:io.rubinbft=loud\"}");

    assertThat(put.statusCode()).isEqualTo(400);
    assertThat(put.body())
        .isEqualTo(
            "{\"error\":\"invalid logging specification 'info:io.rubinbft=loud': unknown level"
                + " 'loud' (debug, info, warn, error, fatal, panic)\"}\n");
    assertThat(put("/logspec", "not json").statusCode()).isEqualTo(400);
    assertThat(get("/logspec").body()).isEqualTo("{\"spec\":\"info\"}\n");
  }

  @Test
  void metricsServesTheRegistryInPrometheusTextFormat() throws Exception {
    Counter counter =
        Counter.builder().name("broadcast_processed").labelNames("channel").register(registry);
    counter.labelValues("mychannel").inc(3);

    HttpResponse<String> response = get("/metrics");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type"))
        .get()
        .asString()
        .startsWith("text/plain");
    assertThat(response.body()).contains("broadcast_processed_total{channel=\"mychannel\"} 3.0");
  }

  private HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return client.send(
        HttpRequest.newBuilder(uri(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> put(String path, String body)
      throws IOException, InterruptedException {
    return client.send(
        HttpRequest.newBuilder(uri(path)).PUT(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + server.address().getPort() + path);
  }
}
