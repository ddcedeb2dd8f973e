package io.rubinbft.orderer.grpc;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Optional;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import org.jspecify.annotations.Nullable;

/**
 * Makes the TLS client certificate of a call available to its handler, for Deliver's {@code
 * tls_cert_hash} binding check (Fabric's BindingInspector).
 */
public final class ClientCertificates implements ServerInterceptor {

  private static final Context.Key<X509Certificate> CLIENT_CERTIFICATE =
      Context.key("rubin-tls-client-certificate");

  private final boolean clientsAuthenticate;

  /**
   * @param clientsAuthenticate whether the listener asks every client for a certificate. When it
   *     does not, no client presents one, and asking the TLS session for it would only throw
   *     (SSLPeerUnverifiedException, a stack trace per call)
   */
  public ClientCertificates(boolean clientsAuthenticate) {
    this.clientsAuthenticate = clientsAuthenticate;
  }

  /** The current call's client certificate, or empty without mutual TLS. */
  public static Optional<X509Certificate> current() {
    return Optional.ofNullable(CLIENT_CERTIFICATE.get());
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    if (!clientsAuthenticate) {
      return next.startCall(call, headers);
    }
    SSLSession session = call.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION);
    X509Certificate certificate = session == null ? null : leaf(session);
    if (certificate == null) {
      return next.startCall(call, headers);
    }
    return Contexts.interceptCall(
        Context.current().withValue(CLIENT_CERTIFICATE, certificate), call, headers, next);
  }

  private static @Nullable X509Certificate leaf(SSLSession session) {
    try {
      Certificate[] chain = session.getPeerCertificates();
      return chain.length > 0 && chain[0] instanceof X509Certificate x509 ? x509 : null;
    } catch (SSLPeerUnverifiedException e) {
      return null;
    }
  }
}
