package io.rubinbft.orderer.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import org.eclipse.jetty.io.EndPoint;

/**
 * Whether a request came with a client certificate that the TLS handshake verified, and the guard
 * Fabric puts on its sensitive operations endpoints ({@code /metrics}, {@code /logspec}): without
 * one, 401 and no body.
 */
public final class ClientCertificates {

  private ClientCertificates() {}

  /** Whether the request's TLS session carries a verified client certificate. */
  public static boolean present(HttpExchange exchange) {
    return exchange.getAttribute(EndPoint.SslSessionData.ATTRIBUTE)
            instanceof EndPoint.SslSessionData session
        && session.peerCertificates() != null
        && session.peerCertificates().length > 0;
  }

  /** {@code handler}, answering 401 to a request without a verified client certificate. */
  public static HttpHandler required(HttpHandler handler) {
    return exchange -> {
      if (present(exchange)) {
        handler.handle(exchange);
      } else {
        JsonResponses.empty(exchange, 401);
      }
    };
  }
}
