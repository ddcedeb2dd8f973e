package io.rubinbft.orderer.adversary;

import io.rubinbft.bft.message.Message;
import io.rubinbft.bft.wire.MessageCodec;
import io.rubinbft.net.ChannelConfig;
import io.rubinbft.net.Identity;
import io.rubinbft.net.tcp.TcpTransport;
import io.rubinbft.orderer.bootstrap.NetworkSummary;
import io.rubinbft.orderer.channel.ConfigBlockReader;
import io.rubinbft.orderer.channel.InvalidConfigException;
import io.rubinbft.orderer.cluster.ClusterNetwork;
import io.rubinbft.orderer.cluster.ClusterPeers;
import io.rubinbft.orderer.consensus.ChannelReplicas;
import io.rubinbft.orderer.consensus.ReplicaDirectory;
import io.rubinbft.orderer.crypto.Pem;
import io.rubinbft.orderer.memory.MemoryBudgets;
import io.rubinbft.orderer.memory.MessageLimits;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A consenter gone Byzantine: the adversary stopped a real consenter's process and speaks for it
 * with its keys on its cluster port, through the production cluster network ({@link ClusterNetwork}
 * over rdma-net's TCP transport: the same handshake, framing and flow control as a node's), so it
 * is authenticated and admitted like the node it replaces. It sends whatever consensus messages it
 * likes, and records what the honest nodes send it (for replays).
 */
final class ByzantineConsenter implements AutoCloseable {

  /** Messages recorded for replays at most. */
  private static final int RECORDED = 2_000;

  private final ClusterNetwork network;
  private final ReplicaDirectory directory;
  private final int self;
  private final MessageCodec codec;
  private final String channel;
  private final List<byte[]> recorded = new ArrayList<>();

  private ByzantineConsenter(
      ClusterNetwork network,
      ReplicaDirectory directory,
      int self,
      MessageCodec codec,
      String channel) {
    this.network = network;
    this.directory = directory;
    this.self = self;
    this.codec = codec;
    this.channel = channel;
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
    return new ByzantineConsenter(cluster, directory, self, codec, network.channelId());
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
  }

  @Override
  public void close() {
    network.close();
  }
}
