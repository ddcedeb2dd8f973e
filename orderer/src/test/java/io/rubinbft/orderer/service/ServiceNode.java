package io.rubinbft.orderer.service;

import io.grpc.BindableService;
import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.rubinbft.ledger.BlockStore;
import io.rubinbft.ledger.BlockStoreConfig;
import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.ledger.Durability;
import io.rubinbft.orderer.broadcast.BroadcastThrottle;
import io.rubinbft.orderer.config.HostPort;
import io.rubinbft.orderer.config.ThrottlingSettings;
import io.rubinbft.orderer.config.TlsSettings;
import io.rubinbft.orderer.crypto.Fixtures;
import io.rubinbft.orderer.crypto.Sha256;
import io.rubinbft.orderer.deliver.DeliverBytes;
import io.rubinbft.orderer.grpc.AtomicBroadcastService;
import io.rubinbft.orderer.grpc.GrpcListener;
import io.rubinbft.orderer.grpc.ListenerSettings;
import io.rubinbft.orderer.grpc.OutboundSizeLimit;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.identity.SigningIdentity;
import io.rubinbft.orderer.metrics.BroadcastMetrics;
import io.rubinbft.orderer.metrics.DeliverMetrics;
import io.rubinbft.orderer.msp.ChannelMsps;
import io.rubinbft.orderer.msp.MspConfigException;
import io.rubinbft.orderer.policy.GenesisChannel;
import io.rubinbft.orderer.policy.PolicyConfigException;
import io.rubinbft.orderer.testing.FabricFixtures;
import io.rubinbft.orderer.testing.Keepalives;
import io.rubinbft.orderer.validation.ChannelRules;
import io.rubinbft.orderer.validation.DeliverValidator;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hyperledger.fabric.protos.orderer.AtomicBroadcastGrpc;

/**
 * A node serving the fixture channel over real gRPC on loopback: a RocksDB ledger holding Fabric's
 * blocks 0..9 (orderer1's copies), validators built from the genesis config, and a request pool
 * that records submissions.
 */
final class ServiceNode implements AutoCloseable {

  static final String CHANNEL = "fixture";

  /** When Fabric answered the recorded requests (the stale request's timestamp + 20 minutes). */
  static final Instant RECORDED_AT = Instant.parse("2026-11-21T05:23:23Z");

  static final Clock RECORDED_CLOCK = Clock.fixed(RECORDED_AT, ZoneOffset.UTC);

  static final long ABSOLUTE_MAX_BYTES = 10_485_760;

  static final int FIXTURE_HEIGHT = 10;

  private static final long MAX_MESSAGE_BYTES = 100L << 20;

  private static final Path USER1 =
      FabricFixtures.root()
          .resolve("crypto/peerOrganizations/org1.example.com/users/User1@org1.example.com");

  final BlockStore store;
  final ChannelLedger ledger;
  final RecordingChannel channel;
  final TestChannels channels = new TestChannels();

  /** The Broadcast and Deliver metrics of the node. */
  final PrometheusRegistry metrics = new PrometheusRegistry();

  /** The node's clock: the recorded time until a test moves it. */
  final SettableClock clock = new SettableClock(RECORDED_AT);

  private final GrpcListener listener;
  private ManagedChannel client;

  private ServiceNode(Path directory, TlsSettings tls, int poolCapacity) throws IOException {
    this(directory, tls, poolCapacity, true, MAX_MESSAGE_BYTES);
  }

  /**
   * @param maxSendBytes the largest message the service sends (General.MaxSendMsgSize)
   */
  private ServiceNode(
      Path directory,
      TlsSettings tls,
      int poolCapacity,
      boolean expirationChecks,
      long maxSendBytes)
      throws IOException {
    this(
        directory,
        tls,
        poolCapacity,
        expirationChecks,
        new OutboundSizeLimit(maxSendBytes),
        DeliverBytes.forThisJvm());
  }

  /**
   * @param expirationChecks whether expired client certificates are refused
   * @param outbound the interceptor every call's responses pass through (e.g. {@link
   *     OutboundSizeLimit}, General.MaxSendMsgSize)
   * @param deliverBytes the node's budget of Deliver bytes in flight
   */
  private ServiceNode(
      Path directory,
      TlsSettings tls,
      int poolCapacity,
      boolean expirationChecks,
      ServerInterceptor outbound,
      DeliverBytes deliverBytes)
      throws IOException {
    store = BlockStore.open(BlockStoreConfig.defaults(directory));
    ledger = store.createChannel(CHANNEL);
    for (int number = 0; number < FIXTURE_HEIGHT; number++) {
      ledger.append(
          Fixtures.bytes(String.format("blocks/bft-%03d.block", number)), Durability.UNSYNCED);
    }
    channel = new RecordingChannel(genesisRules(), ledger, poolCapacity);
    channels.serve(CHANNEL, channel);
    AtomicBroadcastService broadcast =
        new AtomicBroadcastService(
            channels,
            clock,
            DeliverValidator.DEFAULT_TIME_WINDOW,
            tls.clientAuthRequired(),
            expirationChecks,
            BroadcastThrottle.start(ThrottlingSettings.OFF, clock),
            new Sha256(GenesisChannel.PROVIDER),
            new BroadcastMetrics(metrics),
            new DeliverMetrics(metrics),
            deliverBytes);
    BindableService service = () -> ServerInterceptors.intercept(broadcast, outbound);
    listener =
        GrpcListener.start(
            ListenerSettings.of(
                new HostPort("127.0.0.1", 0), tls, MAX_MESSAGE_BYTES, Keepalives.FABRIC_DEFAULTS),
            List.of(service));
  }

  /** Plain-text gRPC, a pool that takes {@code poolCapacity} requests. */
  static ServiceNode start(Path directory, int poolCapacity) throws IOException {
    return new ServiceNode(directory, TlsSettings.plaintext(), poolCapacity);
  }

  static ServiceNode start(Path directory) throws IOException {
    return start(directory, Integer.MAX_VALUE);
  }

  /**
   * Plain-text gRPC with the node settings {@code General.Authentication.NoExpirationChecks}
   * (inverted) and {@code General.MaxSendMsgSize}.
   */
  static ServiceNode start(Path directory, boolean expirationChecks, long maxSendBytes)
      throws IOException {
    return new ServiceNode(
        directory, TlsSettings.plaintext(), Integer.MAX_VALUE, expirationChecks, maxSendBytes);
  }

  /** Plain-text gRPC whose responses pass through {@code outbound} (e.g. one that fails them). */
  static ServiceNode startWithOutbound(Path directory, ServerInterceptor outbound)
      throws IOException {
    return new ServiceNode(
        directory,
        TlsSettings.plaintext(),
        Integer.MAX_VALUE,
        true,
        outbound,
        DeliverBytes.forThisJvm());
  }

  /** Plain-text gRPC whose Deliver blocks in flight hold at most {@code deliverBytes}. */
  static ServiceNode startWithDeliverBytes(Path directory, DeliverBytes deliverBytes)
      throws IOException {
    return new ServiceNode(
        directory,
        TlsSettings.plaintext(),
        Integer.MAX_VALUE,
        true,
        new OutboundSizeLimit(MAX_MESSAGE_BYTES),
        deliverBytes);
  }

  /** Mutual TLS with orderer1's certificate, trusting Org1's TLS CA for clients. */
  static ServiceNode startWithMutualTls(Path directory) throws IOException {
    Path org1TlsCa =
        FabricFixtures.root()
            .resolve(
                "crypto/peerOrganizations/org1.example.com/tlsca/tlsca.org1.example.com-cert.pem");
    return new ServiceNode(
        directory, FabricFixtures.ordererTls(1, true, List.of(org1TlsCa)), Integer.MAX_VALUE);
  }

  static ChannelRules genesisRules() {
    try {
      return ChannelRules.fromConfig(
          Fixtures.genesisConfig(),
          GenesisChannel.PROVIDER,
          ABSOLUTE_MAX_BYTES,
          ChannelMsps.DEFAULT_CACHE_CAPACITY);
    } catch (MspConfigException | PolicyConfigException e) {
      throw new IllegalStateException(e);
    }
  }

  /** User1@org1.example.com, a client of Org1 (a channel reader and writer). */
  static SigningIdentity user1() {
    return SigningIdentity.fromMspDirectory(
        USER1.resolve("msp"), "Org1MSP", GenesisChannel.PROVIDER);
  }

  /** Builds envelopes as User1 at the recorded time. */
  static EnvelopeFactory user1Envelopes() {
    return new EnvelopeFactory(user1(), RECORDED_CLOCK);
  }

  /** User1's TLS client certificate and key (issued by Org1's TLS CA). */
  static Path user1Tls() {
    return USER1.resolve("tls");
  }

  AtomicBroadcastGrpc.AtomicBroadcastStub stub() {
    return AtomicBroadcastGrpc.newStub(client());
  }

  ManagedChannel client() {
    if (client == null) {
      client = connect(InsecureChannelCredentials.create());
    }
    return client;
  }

  /** Where the node's gRPC listener listens. */
  InetSocketAddress address() {
    return listener.address();
  }

  ManagedChannel connect(ChannelCredentials credentials) {
    return Grpc.newChannelBuilderForAddress("localhost", listener.address().getPort(), credentials)
        .maxInboundMessageSize((int) MAX_MESSAGE_BYTES)
        .build();
  }

  @Override
  public void close() {
    if (client != null) {
      client.shutdownNow();
      try {
        client.awaitTermination(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    listener.close();
    store.close();
  }
}
