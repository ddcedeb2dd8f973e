package io.rubinbft.orderer.node;

import io.grpc.BindableService;
import io.grpc.ServerInterceptors;
import io.rubinbft.ledger.BlockStore;
import io.rubinbft.ledger.BlockStoreConfig;
import io.rubinbft.net.ChannelConfig;
import io.rubinbft.net.Identity;
import io.rubinbft.orderer.broadcast.BroadcastThrottle;
import io.rubinbft.orderer.channel.InvalidConfigException;
import io.rubinbft.orderer.cluster.ClusterNetwork;
import io.rubinbft.orderer.cluster.ClusterTransports;
import io.rubinbft.orderer.config.ClusterSettings;
import io.rubinbft.orderer.config.ConfigException;
import io.rubinbft.orderer.config.NodeConfig;
import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.crypto.Pem;
import io.rubinbft.orderer.crypto.Sha256;
import io.rubinbft.orderer.deliver.DeliverBytes;
import io.rubinbft.orderer.grpc.AtomicBroadcastService;
import io.rubinbft.orderer.grpc.GrpcListener;
import io.rubinbft.orderer.grpc.ListenerSettings;
import io.rubinbft.orderer.grpc.OutboundSizeLimit;
import io.rubinbft.orderer.http.HttpListener;
import io.rubinbft.orderer.identity.SigningIdentity;
import io.rubinbft.orderer.memory.MemoryBudgets;
import io.rubinbft.orderer.memory.MessageLimits;
import io.rubinbft.orderer.memory.NodeMemory;
import io.rubinbft.orderer.metrics.OrdererMetrics;
import io.rubinbft.orderer.onboarding.NodeTls;
import io.rubinbft.orderer.onboarding.OnboardingSettings;
import io.rubinbft.orderer.onboarding.PendingJoins;
import io.rubinbft.orderer.onboarding.PullLimits;
import io.rubinbft.orderer.operations.LogLevels;
import io.rubinbft.orderer.operations.OperationsServer;
import io.rubinbft.orderer.operations.VersionInfo;
import io.rubinbft.orderer.participation.ParticipationHandler;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running orderer node: its block store, replica network, channels, and the three listeners
 * (Broadcast/Deliver gRPC, the channel participation API, the operations endpoint).
 */
public final class OrdererNode implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(OrdererNode.class);

  /**
   * Slots of each replica-to-replica link's rings, each way. rdma-net's default (32 of 64 KiB each
   * way, 4 MiB per link) was 24 MiB of direct memory for a 4-node cluster's 6 links; 16 each way
   * still lets 1 MiB be in flight per link, more than loopback or a LAN needs between credits.
   */
  private static final int LINK_SLOTS = 16;

  private final List<AutoCloseable> resources;
  private final ChannelRegistry channels;
  private final GrpcListener grpc;
  private final HttpListener admin;
  private final OperationsServer operations;
  private final ClusterNetwork network;

  private OrdererNode(
      List<AutoCloseable> resources,
      ChannelRegistry channels,
      GrpcListener grpc,
      HttpListener admin,
      OperationsServer operations,
      ClusterNetwork network) {
    this.resources = resources;
    this.channels = channels;
    this.grpc = grpc;
    this.admin = admin;
    this.operations = operations;
    this.network = network;
  }

  /**
   * Starts a node from {@code config}.
   *
   * @throws ConfigException when the configuration cannot be served (names the setting)
   */
  public static OrdererNode start(NodeConfig config, LogLevels logs) throws IOException {
    return start(config, logs, NodeMemory.standard());
  }

  /** Starts a node from {@code config} whose channels must fit {@code memory}'s heap. */
  static OrdererNode start(NodeConfig config, LogLevels logs, NodeMemory memory)
      throws IOException {
    return start(config, logs, memory, Clock.systemUTC());
  }

  /**
   * Starts a node as {@link #start(NodeConfig, LogLevels, NodeMemory)} does, its Broadcast
   * throttle's refills reading {@code throttleClock} (a test ends them with a clock that fails).
   */
  static OrdererNode start(
      NodeConfig config, LogLevels logs, NodeMemory memory, Clock throttleClock)
      throws IOException {
    // Closed first to last: listeners, network, channels (their ledger writers flush), store.
    List<AutoCloseable> opened = new ArrayList<>();
    config.warnings().forEach(LOG::warn);
    try {
      CryptoProvider provider = CryptoProvider.preferNative();
      SigningIdentity identity =
          SigningIdentity.fromMspDirectory(config.mspDirectory(), config.mspId(), provider);
      BlockStore store = BlockStore.open(BlockStoreConfig.defaults(config.ledgerDirectory()));
      opened.add(store);
      ChannelRegistry channels = new ChannelRegistry();
      opened.addFirst(channels);
      ClusterNetwork network = startNetwork(config, channels, memory.budgets());
      opened.addFirst(network);
      OrdererMetrics metrics =
          OrdererMetrics.register(
              () -> ChannelViews.participation(channels),
              () -> ChannelViews.of(channels),
              network::stats,
              network::traffic,
              VersionInfo.ofThisBuild().version());
      store.observeCommits(metrics.ledgerCommits());
      channels.start(
          new NodeContext(
              identity,
              provider,
              store,
              network,
              config.walDirectory(),
              NodeContext.DEFAULT_TICK,
              Clock.systemUTC(),
              config.expirationChecks(),
              metrics,
              onboarding(config, provider),
              memory));
      BroadcastThrottle throttle = BroadcastThrottle.start(config.throttling(), throttleClock);
      opened.addFirst(throttle);
      BindableService counted = atomicBroadcast(config, channels, provider, metrics, throttle);
      return listen(config, channels, network, throttle, counted, metrics, logs, opened);
    } catch (InvalidConfigException e) {
      closeAll(opened);
      throw new ConfigException("cannot resume a channel: " + e.getMessage(), e);
    } catch (IOException | RuntimeException e) {
      closeAll(opened);
      throw e;
    }
  }

  public ChannelRegistry channels() {
    return channels;
  }

  public InetSocketAddress grpcAddress() {
    return grpc.address();
  }

  public InetSocketAddress adminAddress() {
    return admin.address();
  }

  public InetSocketAddress operationsAddress() {
    return operations.address();
  }

  public InetSocketAddress clusterAddress() {
    return network.localAddress();
  }

  @Override
  public void close() {
    closeAll(resources);
  }

  private static OrdererNode listen(
      NodeConfig config,
      ChannelRegistry channels,
      ClusterNetwork network,
      BroadcastThrottle throttle,
      BindableService broadcast,
      OrdererMetrics metrics,
      LogLevels logs,
      List<AutoCloseable> opened)
      throws IOException {
    AdminClientCaCheck adminClientCas = AdminClientCaCheck.of(config.admin().tls(), LOG::warn);
    adminClientCas.atStart(channels.clientTlsCas());
    channels.observeJoins(adminClientCas::joined);
    HttpListener admin = HttpListener.bind(config.admin().listen(), config.admin().tls(), "admin");
    opened.addFirst(admin);
    admin
        .server()
        .createContext(
            ParticipationHandler.CHANNELS_PATH,
            new ParticipationHandler(channels, config.admin().maxRequestBodySize()));
    admin.start();
    GrpcListener grpc =
        GrpcListener.start(
            new ListenerSettings(
                config.listen(),
                config.tls(),
                channels::clientTlsCas,
                config.maxReceiveMessageBytes(),
                config.keepalive(),
                config.connections(),
                channels::largestAbsoluteMaxBytes),
            List.of(broadcast));
    opened.addFirst(grpc);
    metrics.grpc().countConnectionsRefused(grpc::connectionRefusals);
    metrics.grpc().countMessagesRefused(grpc::inboundRefusals);
    grpc.health().setStatus("", io.grpc.health.v1.HealthCheckResponse.ServingStatus.SERVING);
    // Operations last: /healthz answering 200 tells probes the gRPC port already serves.
    OperationsServer operations =
        OperationsServer.start(
            config.operations(),
            metrics.registry(),
            NodeHealth.of(channels, network, throttle, Clock.systemUTC()),
            logs,
            VersionInfo.ofThisBuild(),
            Clock.systemUTC());
    opened.addFirst(operations);
    LOG.info(
        "orderer node serving: grpc {}, admin {}, operations {}, cluster {}",
        grpc.address(),
        admin.address(),
        operations.address(),
        network.localAddress());
    return new OrdererNode(opened, channels, grpc, admin, operations, network);
  }

  /**
   * Broadcast and Deliver as the node serves them: counted in Fabric's gRPC metrics and limited to
   * MaxSendMsgSize per message sent; the blocks being sent hold this JVM's Deliver budget at most.
   */
  private static BindableService atomicBroadcast(
      NodeConfig config,
      ChannelRegistry channels,
      CryptoProvider provider,
      OrdererMetrics metrics,
      BroadcastThrottle throttle) {
    DeliverBytes deliverBytes = DeliverBytes.forThisJvm();
    metrics.deliverBudget(deliverBytes);
    AtomicBroadcastService broadcast =
        new AtomicBroadcastService(
            channels,
            Clock.systemUTC(),
            config.authenticationTimeWindow(),
            config.tls().clientAuthRequired(),
            config.expirationChecks(),
            throttle,
            new Sha256(provider),
            metrics.broadcast(),
            metrics.deliver(),
            deliverBytes);
    return () ->
        ServerInterceptors.intercept(
            broadcast,
            metrics.grpc().interceptor(),
            new OutboundSizeLimit(config.maxSendMessageBytes()));
  }

  /**
   * Pulling uses the gRPC listener's key pair as client certificate; join blocks wait where Fabric
   * keeps them, under the ledger folder's {@code pendingops/join}.
   */
  private static OnboardingSettings onboarding(NodeConfig config, CryptoProvider provider) {
    return new OnboardingSettings(
        config.tls().enabled()
            ? Optional.of(NodeTls.of(config.tls(), new Sha256(provider)))
            : Optional.empty(),
        Optional.of(config.listen()),
        pullLimits(config.cluster()),
        new PendingJoins(config.ledgerDirectory().resolve("pendingops").resolve("join")));
  }

  /** Fabric's replication timeouts, where set, bound the puller as they bound Fabric's. */
  private static PullLimits pullLimits(ClusterSettings cluster) {
    PullLimits defaults = PullLimits.defaults();
    Duration maxBackoff = cluster.replicationRetryTimeout().orElse(defaults.maxBackoff());
    return new PullLimits(
        cluster.replicationPullTimeout().orElse(defaults.blockTimeout()),
        defaults.probeTimeout(),
        maxBackoff.compareTo(defaults.minBackoff()) < 0 ? maxBackoff : defaults.minBackoff(),
        maxBackoff);
  }

  private static ClusterNetwork startNetwork(
      NodeConfig config, ChannelRegistry channels, MemoryBudgets budgets) throws IOException {
    int port =
        config
            .cluster()
            .listenPort()
            .orElseThrow(
                () ->
                    new ConfigException(
                        "General.Cluster.ListenPort is required: the port of this node's entry in"
                            + " the channels' consenter mapping"));
    Identity identity =
        new Identity(
            Pem.certificates(config.cluster().certificate()).getFirst(),
            Pem.privateKey(config.cluster().privateKey()));
    ChannelConfig defaults = ChannelConfig.defaults(identity);
    ChannelConfig channelConfig =
        new ChannelConfig(
            identity,
            LINK_SLOTS,
            LINK_SLOTS,
            defaults.slotBytes(),
            MessageLimits.TRANSPORT_MAX_MESSAGE_BYTES,
            defaults.acceptBacklog());
    return ClusterNetwork.start(
        ClusterTransports.open(config.cluster(), channelConfig),
        channelConfig,
        new InetSocketAddress(config.cluster().listenHost(), port),
        channels.clusterPeers(),
        budgets.peerLinkBytes());
  }

  private static void closeAll(List<AutoCloseable> resources) {
    for (AutoCloseable resource : resources) {
      try {
        resource.close();
      } catch (Exception e) {
        LOG.warn("closing {} failed: {}", resource, e.toString());
      }
    }
  }
}
