package io.rubinbft.orderer.operations;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.rubinbft.orderer.config.OperationsSettings;
import io.rubinbft.orderer.http.ClientCertificates;
import io.rubinbft.orderer.http.HttpListener;
import io.rubinbft.orderer.http.JsonResponses;
import io.rubinbft.orderer.metrics.FabricExposition;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The operations endpoint, as on Fabric's orderer: {@code /metrics} (Prometheus text format),
 * {@code /healthz} (200, or 503 with the failing checks; {@code ?exclude=<check>} leaves checks
 * out), {@code /version}, and {@code /logspec} (GET the logging specification, PUT a new one). With
 * TLS on, {@code /metrics} and {@code /logspec} answer 401 to a client without a verified
 * certificate, as Fabric's do.
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
    // As Fabric: with TLS on, /metrics and /logspec need a verified client certificate (401
    // without); /healthz and /version stay open to probes.
    boolean secure = settings.tls().enabled();
    if (settings.metricsEnabled()) {
      listener
          .server()
          .createContext("/metrics", guarded(secure, exchange -> metrics(exchange, registry)));
    }
    listener.server().createContext("/healthz", server::healthz);
    listener.server().createContext("/version", server::version);
    listener.server().createContext("/logspec", guarded(secure, server::logspec));
    listener.start();
    return server;
  }

  private static HttpHandler guarded(boolean secure, HttpHandler handler) {
    return secure ? ClientCertificates.required(handler) : handler;
  }

  public InetSocketAddress address() {
    return listener.address();
  }

  @Override
  public void close() {
    listener.close();
  }

  /** As Fabric's orderer: GET only, text format 0.0.4 whatever the scraper accepts. */
  private static void metrics(HttpExchange exchange, PrometheusRegistry registry)
      throws IOException {
    try (exchange) {
      if (!exchange.getRequestMethod().equals("GET")) {
        exchange.getResponseHeaders().set("Allow", "GET");
        exchange.sendResponseHeaders(405, -1);
        return;
      }
      ByteArrayOutputStream body = new ByteArrayOutputStream();
      FabricExposition.write(body, registry.scrape());
      exchange.getResponseHeaders().set("Content-Type", FabricExposition.CONTENT_TYPE);
      exchange.sendResponseHeaders(200, body.size());
      try (OutputStream out = exchange.getResponseBody()) {
        body.writeTo(out);
      }
    }
  }

  private void healthz(HttpExchange exchange) throws IOException {
    if (!exchange.getRequestMethod().equals("GET")) {
      JsonResponses.error(exchange, 405, "invalid request method: " + exchange.getRequestMethod());
      return;
    }
    Set<String> excluded;
    try {
      excluded = excludedChecks(exchange.getRequestURI().getRawQuery());
    } catch (IllegalArgumentException e) {
      JsonResponses.error(exchange, 400, String.valueOf(e.getMessage()));
      return;
    }
    List<HealthChecks.FailedCheck> failed = health.failures(excluded);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", failed.isEmpty() ? "OK" : "Service Unavailable");
    body.put("time", Instant.now(clock).toString());
    if (!failed.isEmpty()) {
      body.put("failed_checks", failed);
    }
    JsonResponses.send(exchange, failed.isEmpty() ? 200 : 503, body);
  }

  /**
   * The checks a {@code /healthz?exclude=<check>&exclude=...} query leaves out, as Kubernetes' own
   * health endpoints take them: a probe that must not act on some failures (the Helm chart's
   * liveness probe leaves out "channels") asks without them.
   *
   * @throws IllegalArgumentException naming a parameter other than {@code exclude} or an unknown
   *     check
   */
  private Set<String> excludedChecks(String rawQuery) {
    if (rawQuery == null || rawQuery.isEmpty()) {
      return Set.of();
    }
    Set<String> known = health.components();
    Set<String> excluded = new TreeSet<>();
    for (String parameter : rawQuery.split("&", 0)) {
      String[] pair = parameter.split("=", 2);
      String key = URLDecoder.decode(pair[0], StandardCharsets.UTF_8);
      String value = pair.length == 2 ? URLDecoder.decode(pair[1], StandardCharsets.UTF_8) : "";
      if (!key.equals("exclude")) {
        throw new IllegalArgumentException(
            "unknown query parameter '" + key + "': /healthz only takes exclude=<check>");
      }
      if (!known.contains(value)) {
        throw new IllegalArgumentException(
            "cannot exclude '" + value + "': the checks are " + new TreeSet<>(known));
      }
      excluded.add(value);
    }
    return excluded;
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
      JsonResponses.error(exchange, 400, String.valueOf(e.getMessage()));
      return;
    }
    JsonResponses.empty(exchange, 204);
  }
}
