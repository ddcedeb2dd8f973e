package io.rubinbft.orderer.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.net.ChannelConfig;
import io.rubinbft.net.Identity;
import io.rubinbft.net.transport.Transport;
import io.rubinbft.orderer.config.ClusterTransport;
import io.rubinbft.orderer.config.ConfigException;
import io.rubinbft.orderer.crypto.Pem;
import io.rubinbft.orderer.testing.FabricFixtures;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The orderer's cluster network over real RDMA verbs (Soft-RoCE in the guest of
 * scripts/rdma-vm-tests.sh): three consenters' endpoints in one JVM, each on its own device, opened
 * as the node opens them from {@code General.Cluster.Transport: rdma}. Every node sends every other
 * one consensus-sized frames, and its successor a multi-megabyte one among them (a large proposal
 * or a block of state transfer), all authenticated by the fixture orderers' TLS identities; a peer
 * with another certificate is refused. Kept small: the guest runs about ten times slower. On a host
 * without an RDMA device the test is skipped with the reason; inside the guest a missing device
 * fails it.
 */
@Tag("rdma-vm")
class ClusterNetworkRdmaVmTest {

  /**
   * Three consenters, all to all: six connections. Connection set-up (ECDSA and X25519 in the
   * handshake) dominates in the emulated guest, so more nodes would mostly add minutes there.
   */
  private static final int NODES = 3;

  /** The consensus epoch every frame is tagged with (ClusterNetworkTest covers the tag itself). */
  private static final long EPOCH = 0;

  private static final int SMALL_PER_PEER = 24;

  /** A multi-megabyte frame (a large block) each node sends its successor: 32+ slots of 64 KiB. */
  private static final int LARGE_BYTES = (2 << 20) + 12_345;

  private static final long WAIT_SECONDS = 120;

  private record Received(X509Certificate peer, byte[] message) {}

  @TempDir Path unused;

  private final List<ClusterNetwork> nodes = new ArrayList<>();
  private final List<BlockingQueue<Received>> inboxes = new ArrayList<>();

  @AfterEach
  void stop() {
    nodes.forEach(ClusterNetwork::close);
  }

  @Test
  void consentersExchangeConsensusAndMultiMegabyteFramesOverRdma() throws Exception {
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    start(NODES);
    // sent[from][to]: what from sends to; its successor also gets one large frame, mid-stream
    List<List<List<byte[]>>> sent = new ArrayList<>();
    for (int from = 0; from < NODES; from++) {
      List<List<byte[]>> toEach = new ArrayList<>();
      for (int to = 0; to < NODES; to++) {
        toEach.add(to == from ? List.of() : messages(random, from, to == (from + 1) % NODES));
      }
      sent.add(toEach);
    }
    for (int from = 0; from < NODES; from++) {
      for (int to = 0; to < NODES; to++) {
        for (byte[] message : sent.get(from).get(to)) {
          nodes.get(from).send(nodes.get(to).localAddress(), "fixture", EPOCH, message);
        }
      }
    }

    for (int to = 0; to < NODES; to++) {
      List<List<byte[]>> bySender = new ArrayList<>();
      int expected = 0;
      for (int from = 0; from < NODES; from++) {
        bySender.add(new ArrayList<>());
        expected += sent.get(from).get(to).size();
      }
      for (int i = 0; i < expected; i++) {
        Received r = inboxes.get(to).poll(WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(r).as("seed=%d: message %d of %d at node %d", seed, i, expected, to).isNotNull();
        bySender.get(senderOf(r)).add(r.message());
      }
      for (int from = 0; from < NODES; from++) {
        assertThat(bySender.get(from))
            .as("seed=%d: %d -> %d in order and intact", seed, from, to)
            .usingElementComparator(Arrays::compare)
            .containsExactlyElementsOf(sent.get(from).get(to));
      }
      assertThat(nodes.get(to).stats().droppedMalformed()).isZero();
      assertThat(nodes.get(to).stats().droppedSendQueueFull()).isZero();
    }
  }

  @Test
  void aPeerWhoseCertificateIsNotAConsentersIsRefused() throws Exception {
    start(2);
    Path adminTls = FabricFixtures.ordererOrg().resolve("users/Admin@example.com/tls");
    Identity admin =
        new Identity(
            Pem.certificates(adminTls.resolve("client.crt")).getFirst(),
            Pem.privateKey(adminTls.resolve("client.key")));
    ChannelConfig channels = ChannelConfig.defaults(admin);
    try (ClusterNetwork intruder =
        ClusterNetwork.start(
            ClusterTransports.open(
                ClusterSettingsForTests.of(ClusterTransport.RDMA, unused), channels),
            channels,
            new InetSocketAddress(guestAddress(), 0),
            ClusterPeersForTests.anyOf(List.of(tlsCertificate(1))))) {
      intruder.send(nodes.getFirst().localAddress(), "fixture", EPOCH, new byte[] {1, 2, 3});
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
      while (handshakesRejected(nodes.getFirst()) == 0) {
        assertThat(System.nanoTime() - deadline).as("the intruder is refused in time").isNegative();
        Thread.sleep(50);
      }
      nodes.get(1).send(nodes.getFirst().localAddress(), "fixture", EPOCH, new byte[] {4});

      Received r = inboxes.getFirst().poll(WAIT_SECONDS, TimeUnit.SECONDS);
      assertThat(r).isNotNull();
      assertThat(r.message()).containsExactly(4);
      assertThat(r.peer()).isEqualTo(tlsCertificate(2));
      assertThat(inboxes.getFirst()).isEmpty();
      assertThat(intruder.stats().connectedPeers()).isZero();
    }
  }

  private static long handshakesRejected(ClusterNetwork node) {
    return node.traffic().map(traffic -> traffic.selector().handshakesRejected()).orElse(0L);
  }

  /**
   * Consensus-sized frames (votes, checkpoints: a few hundred bytes; small proposals: up to 32 KiB)
   * and, with {@code large}, a multi-megabyte one among them.
   */
  private static List<byte[]> messages(Random random, int sender, boolean large) {
    List<byte[]> messages = new ArrayList<>();
    for (int i = 0; i < SMALL_PER_PEER; i++) {
      int size = random.nextInt(4) == 0 ? 1 + random.nextInt(32 * 1024) : 64 + random.nextInt(512);
      messages.add(message(random, sender, size));
      if (large && i == SMALL_PER_PEER / 2) {
        messages.add(message(random, sender, LARGE_BYTES));
      }
    }
    return messages;
  }

  private static byte[] message(Random random, int sender, int size) {
    byte[] message = new byte[Math.max(size, 4)];
    random.nextBytes(message);
    ByteBuffer.wrap(message).put((byte) sender);
    return message;
  }

  private int senderOf(Received r) {
    for (int n = 0; n < NODES; n++) {
      if (r.peer().equals(tlsCertificate(n + 1))) {
        assertThat(r.message()[0]).as("the authenticated sender wrote it").isEqualTo((byte) n);
        return n;
      }
    }
    throw new AssertionError("a frame from an unknown peer: " + r.peer().getSubjectX500Principal());
  }

  private void start(int count) throws IOException {
    List<X509Certificate> consenters = new ArrayList<>();
    for (int n = 1; n <= NODES; n++) {
      consenters.add(tlsCertificate(n));
    }
    for (int n = 1; n <= count; n++) {
      Path tls = FabricFixtures.orderer(n).resolve("tls");
      ChannelConfig channels =
          ChannelConfig.defaults(
              new Identity(tlsCertificate(n), Pem.privateKey(tls.resolve("server.key"))));
      ClusterNetwork node =
          ClusterNetwork.start(
              openOrSkip(channels),
              channels,
              new InetSocketAddress(guestAddress(), 0),
              ClusterPeersForTests.anyOf(consenters));
      BlockingQueue<Received> inbox = new LinkedBlockingQueue<>();
      node.register("fixture", (peer, epoch, message) -> inbox.add(new Received(peer, message)));
      nodes.add(node);
      inboxes.add(inbox);
    }
  }

  /** The node's rdma transport; on a host without RDMA the test is skipped with the reason. */
  private Transport openOrSkip(ChannelConfig channels) throws IOException {
    try {
      return ClusterTransports.open(
          ClusterSettingsForTests.of(ClusterTransport.RDMA, unused), channels);
    } catch (ConfigException e) {
      if (System.getenv("SOFTROCE_GUEST") != null) {
        throw e;
      }
      Assumptions.abort("run scripts/rdma-vm-tests.sh for a Soft-RoCE guest: " + e.getMessage());
      throw e;
    }
  }

  /**
   * The guest's RDMA address (softroce-vm.sh exports SOFTROCE_ADDR): rdma_cm cannot use loopback.
   */
  private static InetAddress guestAddress() throws IOException {
    return InetAddress.getByName(System.getenv().getOrDefault("SOFTROCE_ADDR", "192.0.2.1"));
  }

  private static X509Certificate tlsCertificate(int orderer) {
    return Pem.certificates(FabricFixtures.orderer(orderer).resolve("tls/server.crt")).getFirst();
  }
}
