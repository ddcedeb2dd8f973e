package io.rubinbft.orderer.grpc;

import io.grpc.BindableService;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import io.grpc.ServerInterceptors;
import io.grpc.TlsServerCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.MultiThreadIoEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.nio.NioIoHandler;
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
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
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
 * arrives (grpc-java's deframer checks it before buffering the body), and never more than the
 * largest AbsoluteMaxBytes of the served channels plus {@link #MESSAGE_MARGIN_BYTES}, refused as
 * its bytes arrive; the messages being received hold at most {@link #CONNECTION_INBOUND_BYTES} per
 * connection and {@link #NODE_INBOUND_BYTES} on the node, and one not whole after {@link
 * #MESSAGE_GRACE} plus its bytes' time at {@link #MIN_MESSAGE_BYTES_PER_SECOND} gives way to any
 * message that needs its room, and is cut off while the node's budget is more than half held
 * ({@link InboundMessageBudget}); clients pinging more often than {@code
 * General.Keepalive.ServerMinInterval} are sent GOAWAY; connections are capped per source address
 * and in total, and those still handshaking more tightly ({@link ConnectionCaps}, {@code
 * General.Connections}).
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

  /**
   * What a message may exceed the largest AbsoluteMaxBytes of the served channels by: the envelope
   * around a payload of that size, and Broadcast/Deliver's framing.
   */
  static final int MESSAGE_MARGIN_BYTES = 64 << 10;

  /**
   * The most one connection's messages in progress may hold: the largest message any channel can
   * order, with room beside it for small ones ({@link InboundMessageBudget}).
   */
  static final long CONNECTION_INBOUND_BYTES = MAX_ORDERABLE_MESSAGE_BYTES + (1L << 20);

  /**
   * The most all connections' messages in progress may hold: two of the largest, within the
   * launcher's direct-memory bound beside the replica links' rings (orderer/docs/MEMORY.md).
   */
  static final long NODE_INBOUND_BYTES = 2 * CONNECTION_INBOUND_BYTES;

  /**
   * How long any message may be in progress before it must keep {@link
   * #MIN_MESSAGE_BYTES_PER_SECOND} not to be overdue.
   */
  static final Duration MESSAGE_GRACE = Duration.ofSeconds(10);

  /**
   * Beyond {@link #MESSAGE_GRACE}, the average rate since its first byte below which a message in
   * progress is overdue (it gives way to those that need its room): the largest message a channel
   * orders then has over a minute, and a client holding the node's budget from others must keep
   * sending.
   */
  static final long MIN_MESSAGE_BYTES_PER_SECOND = 256 << 10;

  /** How often overdue messages are cut off while the node's budget is more than half held. */
  private static final long DEADLINE_CHECK_MILLIS = 500;

  private final Server server;
  private final ExecutorService executor;
  private final List<EventLoopGroup> eventLoops;
  private final HealthStatusManager health;
  private final ConnectionCaps<?> caps;
  private final InboundMessageBudget inbound;

  private GrpcListener(
      Server server,
      ExecutorService executor,
      List<EventLoopGroup> eventLoops,
      HealthStatusManager health,
      ConnectionCaps<?> caps,
      InboundMessageBudget inbound) {
    this.server = server;
    this.executor = executor;
    this.eventLoops = eventLoops;
    this.health = health;
    this.caps = caps;
    this.inbound = inbound;
  }

  /**
   * Binds {@code settings.address()} and starts serving {@code services}, taking no message larger
   * than the largest AbsoluteMaxBytes of the served channels plus {@link #MESSAGE_MARGIN_BYTES}.
   */
  public static GrpcListener start(ListenerSettings settings, List<BindableService> services)
      throws IOException {
    int staticMax = settings.staticMaxInboundBytes();
    LongSupplier largestAbsoluteMaxBytes = settings.largestAbsoluteMaxBytes();
    return start(
        settings,
        new InboundMessageBudget(
            () ->
                Math.min(
                    staticMax,
                    Math.max(0, largestAbsoluteMaxBytes.getAsLong()) + MESSAGE_MARGIN_BYTES),
            CONNECTION_INBOUND_BYTES,
            NODE_INBOUND_BYTES,
            MESSAGE_GRACE,
            MIN_MESSAGE_BYTES_PER_SECOND),
        services);
  }

  /** Starts with {@code inbound} as the budget of messages being received. */
  static GrpcListener start(
      ListenerSettings settings, InboundMessageBudget inbound, List<BindableService> services)
      throws IOException {
    HostPort address = settings.address();
    TlsSettings tls = settings.tls();
    KeepaliveSettings keepalive = settings.keepalive();
    ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    HealthStatusManager health = new HealthStatusManager();
    CappedConnections capped = new CappedConnections(settings.connections(), Clock.systemUTC());
    // The capped server channel is NIO's, so the event loops are too (grpc-java would pick epoll).
    EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    EventLoopGroup workers = new MultiThreadIoEventLoopGroup(NioIoHandler.newFactory());
    var builder =
        NettyServerBuilder.forAddress(
                new InetSocketAddress(address.host(), address.port()),
                credentials(tls, settings.channelClientCas()))
            .channelFactory(capped)
            .bossEventLoopGroup(boss)
            .workerEventLoopGroup(workers)
            .addTransportFilter(capped)
            .executor(executor)
            .maxInboundMessageSize(settings.staticMaxInboundBytes())
            .addStreamTracerFactory(inbound)
            .maxConcurrentCallsPerConnection(MAX_CONCURRENT_STREAMS)
            .handshakeTimeout(HANDSHAKE_TIMEOUT_SECONDS, TimeUnit.SECONDS)
            .permitKeepAliveTime(keepalive.serverMinInterval().toNanos(), TimeUnit.NANOSECONDS)
            .permitKeepAliveWithoutCalls(true)
            .keepAliveTime(keepalive.serverInterval().toNanos(), TimeUnit.NANOSECONDS)
            .keepAliveTimeout(keepalive.serverTimeout().toNanos(), TimeUnit.NANOSECONDS)
            .addService(ServerInterceptors.intercept(health.getHealthService(), inbound));
    ClientCertificates certificates =
        new ClientCertificates(tls.enabled() && tls.clientAuthRequired());
    for (BindableService service : services) {
      builder.addService(
          ServerInterceptors.intercept(
              EnvelopeRequests.parsedInPlace(service.bindService()), certificates, inbound));
    }
    Server server;
    try {
      server = builder.build().start();
      // The boss loop ends with the listener, and with it the checks.
      var _ =
          boss.scheduleAtFixedRate(
              inbound::cutOffOverdue,
              DEADLINE_CHECK_MILLIS,
              DEADLINE_CHECK_MILLIS,
              TimeUnit.MILLISECONDS);
    } catch (IOException | RuntimeException e) {
      // Nothing to wait for: the start failed, and the loops end on their own.
      var _ = boss.shutdownGracefully(0, 0, TimeUnit.SECONDS);
      var _ = workers.shutdownGracefully(0, 0, TimeUnit.SECONDS);
      executor.shutdownNow();
      throw e;
    }
    return new GrpcListener(
        server, executor, List.of(boss, workers), health, capped.caps(), inbound);
  }

  /** The bound address, with the real port when port 0 was asked for. */
  public InetSocketAddress address() {
    return (InetSocketAddress) server.getListenSockets().getFirst();
  }

  /** Connections refused or closed by the caps so far, by reason (the metric's label). */
  public Map<String, Long> connectionRefusals() {
    return caps.refusals();
  }

  /** Messages refused or made to give way by the inbound budget so far, by reason. */
  public Map<String, Long> inboundRefusals() {
    return inbound.refusals();
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
    // The event loops end within their quiet period; close() does not wait for them.
    for (var group : eventLoops) {
      var _ = group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
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
