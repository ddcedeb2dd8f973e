package io.rubinbft.orderer.operations;

import com.sun.net.httpserver.HttpExchange;
import io.prometheus.metrics.exporter.httpserver.MetricsHandler;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.rubinbft.orderer.config.OperationsSettings;
import io.rubinbft.orderer.http.HttpListener;
import io.rubinbft.orderer.http.JsonResponses;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The operations endpoint, as on Fabric's orderer: {@code /metrics} (Prometheus text format),
 * {@code /healthz} (200, or 503 with the failing checks), {@code /version}, and {@code /logspec}
 * (GET the logging specification, PUT a new one).
 */
public final class OperationsServer implements AutoCloseable {

  private final HttpListener listener;
  private final HealthChecks health;
  private final LogLevels logLevels;
  private final VersionInfo version;
  private final Clock clock;

  private OperationsServer(
      HttpListener listener,
      HealthChecks health,
      LogLevels logLevels,
      VersionInfo version,
      Clock clock) {
    this.listener = listener;
    this.health = health;
    this.logLevels = logLevels;
    this.version = version;
    this.clock = clock;
  }

  /** Binds and starts the endpoint. */
  public static OperationsServer start(
      OperationsSettings settings,
      PrometheusRegistry registry,
      HealthChecks health,
      LogLevels logLevels,
      VersionInfo version,
      Clock clock)
      throws IOException {
    HttpListener listener = HttpListener.bind(settings.listen(), settings.tls(), "operations");
    OperationsServer server = new OperationsServer(listener, health, logLevels, version, clock);
    if (settings.metricsEnabled()) {
      listener.server().createContext("/metrics", new MetricsHandler(registry));
    }
    listener.server().createContext("/healthz", server::healthz);
    listener.server().createContext("/version", server::version);
    listener.server().createContext("/logspec", server::logspec);
    listener.start();
    return server;
  }

  public InetSocketAddress address() {
    return listener.address();
  }

  @Override
  public void close() {
    listener.close();
  }

  private void healthz(HttpExchange exchange) throws IOException {
    if (!exchange.getRequestMethod().equals("GET")) {
      JsonResponses.error(exchange, 405, "invalid request method: " + exchange.getRequestMethod());
      return;
    }
    List<HealthChecks.FailedCheck> failed = health.failures();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", failed.isEmpty() ? "OK" : "Service Unavailable");
    body.put("time", Instant.now(clock).toString());
    if (!failed.isEmpty()) {
      body.put("failed_checks", failed);
    }
    JsonResponses.send(exchange, failed.isEmpty() ? 200 : 503, body);
  }

  private void version(HttpExchange exchange) throws IOException {
    Map<String, String> body = new LinkedHashMap<>();
    body.put("CommitSHA", version.commitSha());
    body.put("Version", version.version());
    JsonResponses.send(exchange, 200, body);
  }

  private void logspec(HttpExchange exchange) throws IOException {
    switch (exchange.getRequestMethod()) {
      case "GET" -> JsonResponses.send(exchange, 200, Map.of("spec", logLevels.spec()));
      case "PUT" -> putLogspec(exchange);
      default ->
          JsonResponses.error(
              exchange, 400, "invalid request method: " + exchange.getRequestMethod());
    }
  }

  private void putLogspec(HttpExchange exchange) throws IOException {
    record Spec(String spec) {}
    Spec request = JsonResponses.parse(exchange.getRequestBody().readNBytes(64 * 1024), Spec.class);
    if (request == null || request.spec() == null) {
      JsonResponses.error(exchange, 400, "request body must be JSON like {\"spec\":\"info\"}");
      return;
    }
    try {
      logLevels.apply(request.spec());
    } catch (IllegalArgumentException e) {
      JsonResponses.error(exchange, 400, e.getMessage());
      return;
    }
    JsonResponses.empty(exchange, 204);
  }
}
