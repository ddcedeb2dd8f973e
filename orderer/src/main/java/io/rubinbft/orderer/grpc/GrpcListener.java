package io.rubinbft.orderer.grpc;

import io.grpc.BindableService;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import io.grpc.ServerInterceptors;
import io.grpc.TlsServerCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import io.rubinbft.orderer.config.HostPort;
import io.rubinbft.orderer.config.KeepaliveSettings;
import io.rubinbft.orderer.config.TlsSettings;
import io.rubinbft.orderer.memory.MessageLimits;
import io.rubinbft.orderer.tls.ClientTrust;
import io.rubinbft.orderer.tls.ServerTls;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The node's gRPC listener (Broadcast/Deliver). Calls run on virtual threads: a Deliver stream
 * blocks while it waits for the next block, and a peer keeps one open per channel for hours, so
 * each stream gets a cheap thread of its own. Envelope requests are parsed without copying their
 * bytes again ({@link EnvelopeRequests}). Also serves {@code grpc.health.v1} for probes.
 *
 * <p>Bounded against clients and strangers (docs/THREAT-MODEL.md): a connection must finish its TLS
 * handshake within {@link #HANDSHAKE_TIMEOUT_SECONDS}; one connection carries at most {@link
 * #MAX_CONCURRENT_STREAMS} calls at once (HTTP/2 SETTINGS: a client's further calls wait); a
 * message is at most {@code General.MaxRecvMsgSize} and never more than {@link
 * #MAX_ORDERABLE_MESSAGE_BYTES}, refused with RESOURCE_EXHAUSTED as soon as its length prefix
 * arrives (grpc-java's deframer checks it before buffering the body), so a connection buffers at
 * most that many streams times that many bytes whatever MaxRecvMsgSize says; clients pinging more
 * often than {@code General.Keepalive.ServerMinInterval} are sent GOAWAY.
 */
public final class GrpcListener implements AutoCloseable {

  /** A TCP connection that has not finished its TLS handshake by then is closed. */
  static final long HANDSHAKE_TIMEOUT_SECONDS = 10;

  /**
   * Calls one connection may have open at once: Fabric's peer gateway opens one Broadcast stream
   * per transaction and orderer, and a peer one Deliver stream per channel.
   */
  static final int MAX_CONCURRENT_STREAMS = 256;

  /**
   * The largest message taken whatever MaxRecvMsgSize says: no envelope larger than a replica
   * message can be ordered (its proposal must fit one; MessageLimits), so no channel's
   * AbsoluteMaxBytes lets a larger one through; the margin is for the Broadcast/Deliver framing.
   */
  static final int MAX_ORDERABLE_MESSAGE_BYTES =
      MessageLimits.TRANSPORT_MAX_MESSAGE_BYTES + (64 << 10);

  private final Server server;
  private final ExecutorService executor;
  private final HealthStatusManager health;

  private GrpcListener(Server server, ExecutorService executor, HealthStatusManager health) {
    this.server = server;
    this.executor = executor;
    this.health = health;
  }

  /**
   * Binds {@code address} and starts serving {@code services}.
   *
   * @param channelClientCas with client authentication on, the CAs trusted besides {@code
   *     tls.clientRootCas()}: the TLS CAs of the served channels' current configs ({@link
   *     ClientTrust})
   * @param maxInboundBytes the largest message a client may send (General.MaxRecvMsgSize), at most
   *     {@link #MAX_ORDERABLE_MESSAGE_BYTES}
   * @param keepalive General.Keepalive, as Fabric's orderer applies it to its gRPC server
   */
  public static GrpcListener start(
      HostPort address,
      TlsSettings tls,
      Supplier<List<X509Certificate>> channelClientCas,
      long maxInboundBytes,
      KeepaliveSettings keepalive,
      List<BindableService> services)
      throws IOException {
    ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    HealthStatusManager health = new HealthStatusManager();
    var builder =
        NettyServerBuilder.forAddress(
                new InetSocketAddress(address.host(), address.port()),
                credentials(tls, channelClientCas))
            .executor(executor)
            .maxInboundMessageSize((int) Math.min(MAX_ORDERABLE_MESSAGE_BYTES, maxInboundBytes))
            .maxConcurrentCallsPerConnection(MAX_CONCURRENT_STREAMS)
            .handshakeTimeout(HANDSHAKE_TIMEOUT_SECONDS, TimeUnit.SECONDS)
            .permitKeepAliveTime(keepalive.serverMinInterval().toNanos(), TimeUnit.NANOSECONDS)
            .permitKeepAliveWithoutCalls(true)
            .keepAliveTime(keepalive.serverInterval().toNanos(), TimeUnit.NANOSECONDS)
            .keepAliveTimeout(keepalive.serverTimeout().toNanos(), TimeUnit.NANOSECONDS)
            .addService(health.getHealthService());
    ClientCertificates certificates = new ClientCertificates();
    for (BindableService service : services) {
      builder.addService(
          ServerInterceptors.intercept(
              EnvelopeRequests.parsedInPlace(service.bindService()), certificates));
    }
    Server server = builder.build().start();
    return new GrpcListener(server, executor, health);
  }

  /** The bound address, with the real port when port 0 was asked for. */
  public InetSocketAddress address() {
    return (InetSocketAddress) server.getListenSockets().getFirst();
  }

  /** The standard gRPC health service's state (SERVING once the node is up). */
  public HealthStatusManager health() {
    return health;
  }

  @Override
  public void close() {
    health.enterTerminalState();
    server.shutdown();
    try {
      if (!server.awaitTermination(5, TimeUnit.SECONDS)) {
        server.shutdownNow();
      }
    } catch (InterruptedException e) {
      server.shutdownNow();
      Thread.currentThread().interrupt();
    }
    executor.shutdownNow();
  }

  private static ServerCredentials credentials(
      TlsSettings tls, Supplier<List<X509Certificate>> channelClientCas) {
    if (!tls.enabled()) {
      return InsecureServerCredentials.create();
    }
    TlsServerCredentials.Builder credentials =
        TlsServerCredentials.newBuilder().keyManager(ServerTls.keyManagers(tls));
    if (tls.clientAuthRequired()) {
      credentials
          .trustManager(ClientTrust.of(tls.clientRootCas(), channelClientCas))
          .clientAuth(TlsServerCredentials.ClientAuth.REQUIRE);
    }
    return credentials.build();
  }
}
