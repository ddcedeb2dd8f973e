package io.rubinbft.orderer.http;

import com.sun.net.httpserver.HttpServer;
import io.rubinbft.orderer.config.HostPort;
import io.rubinbft.orderer.config.TlsSettings;
import io.rubinbft.orderer.tls.ServerTls;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.spi.JettyHttpServer;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.server.handler.ContextHandlerCollection;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * An HTTP(S) listener for the small admin-facing APIs (operations, channel participation), on
 * Jetty: handlers are written against {@code com.sun.net.httpserver} and served through Jetty's
 * bridge for it. Unlike the JDK's own server, Jetty waits for a request's bytes without holding a
 * thread, closes connections idle for {@value #IDLE_TIMEOUT_MILLIS} ms (a TLS handshake or a
 * request that stalls included), drops requests whose body arrives slower than {@value
 * #MIN_REQUEST_BYTES_PER_SECOND} bytes/s, runs handlers on at most {@value #MAX_THREADS} threads
 * and holds at most {@value #MAX_CONNECTIONS} connections: a stranger's idle or trickling
 * connections cannot stop {@code /healthz} or the admin API.
 *
 * <p>With TLS and no required client certificate, a client may still present one (verified against
 * the client root CAs); {@link ClientCertificates} tells handlers whether it did.
 */
public final class HttpListener implements AutoCloseable {

  static final long IDLE_TIMEOUT_MILLIS = 10_000;
  static final long MIN_REQUEST_BYTES_PER_SECOND = 1024;
  static final int MAX_THREADS = 16;
  static final int MAX_CONNECTIONS = 256;
  static final int MAX_CONNECTIONS_PER_SOURCE = 32;

  /**
   * The idle timeout of every connection while the port is at {@value #MAX_CONNECTIONS}: a stranger
   * trickling bytes to hold them all must then send one a second on each.
   */
  static final long IDLE_TIMEOUT_AT_LIMIT_MILLIS = 1_000;

  private final Server jetty;
  private final ServerConnector connector;
  private final JettyHttpServer server;

  private HttpListener(Server jetty, ServerConnector connector, JettyHttpServer server) {
    this.jetty = jetty;
    this.connector = connector;
    this.server = server;
  }

  /** Binds {@code address} with {@code tls}; register handlers, then {@link #start()}. */
  // HttpConfiguration.setMinRequestDataRate is marked for removal; until Jetty removes it, it is
  // the bound on slow request bodies this listener relies on.
  @SuppressWarnings("removal")
  public static HttpListener bind(HostPort address, TlsSettings tls, String name)
      throws IOException {
    QueuedThreadPool threads = new QueuedThreadPool(MAX_THREADS, 2);
    threads.setName(name + "-http");
    Server jetty = new Server(threads);
    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    http.setIdleTimeout(IDLE_TIMEOUT_MILLIS);
    http.setMinRequestDataRate(MIN_REQUEST_BYTES_PER_SECOND);
    ServerConnector connector;
    if (tls.enabled()) {
      // No SNI host check: clients reach nodes by IP or by names their certificates need not list.
      http.addCustomizer(new SecureRequestCustomizer(false));
      connector =
          new ServerConnector(
              jetty,
              1,
              1,
              new SslConnectionFactory(sslContextFactory(tls), HttpVersion.HTTP_1_1.asString()),
              new HttpConnectionFactory(http));
    } else {
      connector = new ServerConnector(jetty, 1, 1, new HttpConnectionFactory(http));
    }
    connector.setHost(address.host());
    connector.setPort(address.port());
    connector.setIdleTimeout(IDLE_TIMEOUT_MILLIS);
    jetty.addConnector(connector);
    NetworkConnectionLimit limit = new NetworkConnectionLimit(MAX_CONNECTIONS, connector);
    limit.setEndPointIdleTimeout(IDLE_TIMEOUT_AT_LIMIT_MILLIS);
    jetty.addBean(limit);
    connector.addBean(new ConnectionsPerSource(MAX_CONNECTIONS_PER_SOURCE));
    jetty.setHandler(new UnreadBodies(new ContextHandlerCollection()));
    jetty.setStopTimeout(0);
    connector.open();
    return new HttpListener(jetty, connector, new JettyHttpServer(jetty, true, http));
  }

  private static SslContextFactory.Server sslContextFactory(TlsSettings tls) {
    SslContextFactory.Server ssl = new SslContextFactory.Server();
    ssl.setSslContext(ServerTls.context(tls));
    ssl.setIncludeProtocols("TLSv1.3", "TLSv1.2");
    if (tls.clientAuthRequired()) {
      ssl.setNeedClientAuth(true);
    } else {
      ssl.setWantClientAuth(true);
    }
    return ssl;
  }

  /** Where handlers are registered ({@code createContext}), before {@link #start()}. */
  public HttpServer server() {
    return server;
  }

  public void start() {
    // A context answers its own path too (/metrics, not only /metrics/...), as the JDK's does.
    for (ContextHandler context : jetty.getDescendants(ContextHandler.class)) {
      context.setAllowNullPathInContext(true);
    }
    try {
      jetty.start();
    } catch (Exception e) {
      throw new UncheckedIOException(
          new IOException("cannot start the HTTP listener at " + address() + ": " + e, e));
    }
  }

  /** The bound address, with the real port when port 0 was asked for. */
  public InetSocketAddress address() {
    return new InetSocketAddress(connector.getHost(), connector.getLocalPort());
  }

  @Override
  public void close() {
    try {
      jetty.stop();
    } catch (Exception e) {
      throw new IllegalStateException("stopping the HTTP listener at " + address(), e);
    }
  }
}
