package io.rubinbft.orderer.adversary;

import io.rubinbft.bft.Decision;
import io.rubinbft.bft.message.Decisions;
import io.rubinbft.bft.message.Message;
import io.rubinbft.bft.message.Status;
import io.rubinbft.bft.spi.Crypto;
import io.rubinbft.bft.spi.ProposalSigner;
import io.rubinbft.bft.wire.Decoded;
import io.rubinbft.bft.wire.MessageCodec;
import io.rubinbft.net.ChannelConfig;
import io.rubinbft.net.Identity;
import io.rubinbft.net.tcp.TcpTransport;
import io.rubinbft.orderer.block.BlockSignatureVerifier;
import io.rubinbft.orderer.block.BlockSigner;
import io.rubinbft.orderer.block.FabricProposalSigner;
import io.rubinbft.orderer.channel.ConfigBlockReader;
import io.rubinbft.orderer.channel.InvalidConfigException;
import io.rubinbft.orderer.cluster.ClusterNetwork;
import io.rubinbft.orderer.cluster.ClusterPeers;
import io.rubinbft.orderer.consensus.ChannelReplicas;
import io.rubinbft.orderer.consensus.ConsenterVoteCrypto;
import io.rubinbft.orderer.consensus.ReplicaDirectory;
import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.crypto.EcKeys;
import io.rubinbft.orderer.crypto.EcdsaSigner;
import io.rubinbft.orderer.crypto.EcdsaVerifier;
import io.rubinbft.orderer.crypto.Pem;
import io.rubinbft.orderer.crypto.Sha256;
import io.rubinbft.orderer.identity.SigningIdentity;
import io.rubinbft.orderer.memory.MemoryBudgets;
import io.rubinbft.orderer.memory.MessageLimits;
import io.rubinbft.orderer.tools.bootstrap.NetworkSummary;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A consenter gone Byzantine: the adversary stopped a real consenter's process and speaks for it
 * with its keys on its cluster port, through the production cluster network ({@link ClusterNetwork}
 * over rdma-net's TCP transport: the same handshake, framing and flow control as a node's), so it
 * is authenticated and admitted like the node it replaces. It sends whatever consensus messages it
 * likes, signed with the consenter's enrollment key where it wants them valid (votes, commit
 * signatures), and records what the honest nodes send it: the first messages (for replays), each
 * replica's latest status and the decisions they answer its state-transfer requests with.
 */
final class ByzantineConsenter implements AutoCloseable {

  /** Messages recorded for replays at most. */
  private static final int RECORDED = 2_000;

  private final ClusterNetwork network;
  private final ReplicaDirectory directory;
  private final int self;
  private final MessageCodec codec;
  private final String channel;
  private final Keys keys;
  private final List<byte[]> recorded = new ArrayList<>();
  private final Map<Integer, Heard<Status>> statuses = new ConcurrentHashMap<>();
  private final Map<Long, Decision> decisions = new ConcurrentHashMap<>();

  /**
   * The consenter's signing keys as its node uses them: votes (pre-prepares, prepares) and commit
   * signatures (Fabric block signatures naming the view).
   */
  record Keys(long consenterId, Crypto votes, ProposalSigner commits, Sha256 sha256) {}

  /** A message and when it came ({@link System#nanoTime()}). */
  record Heard<M>(M message, long nanos) {}

  private ByzantineConsenter(
      ClusterNetwork network,
      ReplicaDirectory directory,
      int self,
      MessageCodec codec,
      String channel,
      Keys keys) {
    this.network = network;
    this.directory = directory;
    this.self = self;
    this.codec = codec;
    this.channel = channel;
    this.keys = keys;
    network.register(channel, (peer, epoch, message) -> record(message));
  }

  /** The identity of node {@code index}: its cluster (TLS) certificate and key. */
  static Identity keysOf(NetworkSummary network, int index) {
    NetworkSummary.Node node = network.nodes().get(index);
    return new Identity(Pem.certificates(node.tlsCert()).getFirst(), Pem.privateKey(node.tlsKey()));
  }

  /**
   * Speaks for node {@code index} of {@code network} on its cluster port, announcing {@code
   * config}'s limits in its handshake.
   */
  static ByzantineConsenter start(NetworkSummary network, int index, ChannelConfig config)
      throws IOException {
    io.rubinbft.orderer.channel.ChannelConfig channel;
    try {
      channel = ConfigBlockReader.read(Files.readAllBytes(network.genesisBlock()));
    } catch (InvalidConfigException e) {
      throw new IllegalStateException(e);
    }
    ReplicaDirectory directory = ReplicaDirectory.fromMapping(channel.consenters());
    int self = directory.replicaOf(config.identity().certificate()).orElseThrow();
    MessageCodec codec =
        new MessageCodec(
            ChannelReplicas.wireLimits(
                ChannelReplicas.replicaConfig(
                    channel, self, Duration.ofMillis(10), MemoryBudgets.standard())));
    NetworkSummary.Node node = network.nodes().get(index);
    ClusterNetwork cluster =
        ClusterNetwork.start(
            TcpTransport.open(),
            config,
            new InetSocketAddress(node.host(), node.clusterPort()),
            ACCEPT_EVERY_PEER,
            64L << 20);
    return new ByzantineConsenter(
        cluster, directory, self, codec, network.channelId(), keys(network, index, channel, self));
  }

  private static Keys keys(
      NetworkSummary network,
      int index,
      io.rubinbft.orderer.channel.ChannelConfig channel,
      int self) {
    CryptoProvider provider = CryptoProvider.jdk();
    EcdsaSigner enrollment =
        SigningIdentity.fromMspDirectory(
                network.nodes().get(index).mspDir(), network.ordererMspId(), provider)
            .signer();
    EcKeys ecKeys = new EcKeys(provider);
    EcdsaVerifier verifier = new EcdsaVerifier(provider);
    Sha256 sha256 = new Sha256(provider);
    long consenterId = channel.consenters().consenters().get(self).id();
    return new Keys(
        consenterId,
        new ConsenterVoteCrypto(channel.consenters(), enrollment, ecKeys, verifier, sha256),
        new FabricProposalSigner(
            new BlockSigner(consenterId, enrollment, new SecureRandom()),
            channel.consenters(),
            new BlockSignatureVerifier(channel.consenters(), ecKeys, verifier)),
        sha256);
  }

  /** The adversary talks to whoever answers: it tests the honest nodes, not its own checks. */
  private static final ClusterPeers ACCEPT_EVERY_PEER =
      new ClusterPeers() {
        @Override
        public Optional<String> rejectInbound(X509Certificate certificate) {
          return Optional.empty();
        }

        @Override
        public Optional<String> rejectDialled(
            InetSocketAddress dialled, X509Certificate certificate) {
          return Optional.empty();
        }
      };

  /** As a node announces itself: 16 slots of 64 KiB, 16 MiB messages. */
  static ChannelConfig honestLimits(Identity identity) {
    ChannelConfig defaults = ChannelConfig.defaults(identity);
    return new ChannelConfig(
        identity,
        16,
        16,
        defaults.slotBytes(),
        MessageLimits.TRANSPORT_MAX_MESSAGE_BYTES,
        defaults.acceptBacklog());
  }

  /** This consenter's replica index in the channel. */
  int self() {
    return self;
  }

  int replicas() {
    return directory.size();
  }

  Keys keys() {
    return keys;
  }

  /** The latest status each replica sent this consenter, by replica. */
  Map<Integer, Heard<Status>> statuses() {
    return Map.copyOf(statuses);
  }

  /** The decision at {@code sequence} among the state-transfer answers the replicas sent. */
  Optional<Decision> decision(long sequence) {
    return Optional.ofNullable(decisions.get(sequence));
  }

  byte[] encode(Message message) {
    return codec.encode(message);
  }

  /** Sends {@code message} bytes of channel epoch {@code epoch} to every other replica. */
  void sendToAll(long epoch, byte[] message) {
    for (int replica = 0; replica < directory.size(); replica++) {
      if (replica != self) {
        sendTo(replica, epoch, message);
      }
    }
  }

  void sendTo(int replica, long epoch, byte[] message) {
    network.send(directory.address(replica), channel, epoch, message);
  }

  /** Sends a frame of channel {@code name} (any name) to every other replica. */
  void sendToAllOnChannel(String name, long epoch, byte[] message) {
    for (int replica = 0; replica < directory.size(); replica++) {
      if (replica != self) {
        network.send(directory.address(replica), name, epoch, message);
      }
    }
  }

  /** What the honest nodes sent this consenter so far (the first {@value #RECORDED}). */
  List<byte[]> recorded() {
    synchronized (recorded) {
      return List.copyOf(recorded);
    }
  }

  private void record(byte[] message) {
    synchronized (recorded) {
      if (recorded.size() < RECORDED) {
        recorded.add(message);
      }
    }
    if (codec.decode(message) instanceof Decoded.Valid<Message>(var decoded)) {
      switch (decoded) {
        case Status status -> statuses.put(status.sender(), new Heard<>(status, System.nanoTime()));
        case Decisions answer ->
            answer.decisions().forEach(decision -> decisions.put(decision.sequence(), decision));
        default -> {}
      }
    }
  }

  @Override
  public void close() {
    network.close();
  }
}
