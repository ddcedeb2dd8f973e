package io.rubinbft.orderer.http;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import io.rubinbft.orderer.config.HostPort;
import io.rubinbft.orderer.config.TlsSettings;
import io.rubinbft.orderer.tls.ServerTls;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * An HTTP(S) listener on the JDK's built-in server, for the small admin-facing APIs (operations,
 * channel participation). Requests are served by a few platform threads: these APIs see a handful
 * of requests a minute, never the data path.
 */
public final class HttpListener implements AutoCloseable {

  private final HttpServer server;
  private final ExecutorService executor;

  private HttpListener(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /** Binds {@code address} with {@code tls}; register handlers, then {@link #start()}. */
  public static HttpListener bind(HostPort address, TlsSettings tls, String name)
      throws IOException {
    InetSocketAddress socket = new InetSocketAddress(address.host(), address.port());
    HttpServer server;
    if (tls.enabled()) {
      HttpsServer https = HttpsServer.create(socket, 0);
      https.setHttpsConfigurator(configurator(ServerTls.context(tls), tls.clientAuthRequired()));
      server = https;
    } else {
      server = HttpServer.create(socket, 0);
    }
    ExecutorService executor =
        Executors.newFixedThreadPool(2, Thread.ofPlatform().name(name + "-http-", 0).factory());
    server.setExecutor(executor);
    return new HttpListener(server, executor);
  }

  public HttpServer server() {
    return server;
  }

  public void start() {
    server.start();
  }

  /** The bound address, with the real port when port 0 was asked for. */
  public InetSocketAddress address() {
    return server.getAddress();
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  private static HttpsConfigurator configurator(SSLContext context, boolean needClientAuth) {
    return new HttpsConfigurator(context) {
      @Override
      public void configure(HttpsParameters parameters) {
        SSLParameters ssl = context.getDefaultSSLParameters();
        ssl.setProtocols(new String[] {"TLSv1.3", "TLSv1.2"});
        ssl.setNeedClientAuth(needClientAuth);
        parameters.setSSLParameters(ssl);
      }
    };
  }
}
