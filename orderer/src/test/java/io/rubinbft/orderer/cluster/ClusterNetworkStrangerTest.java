package io.rubinbft.orderer.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.net.ChannelConfig;
import io.rubinbft.net.Identity;
import io.rubinbft.net.tcp.TcpTransport;
import io.rubinbft.orderer.crypto.Pem;
import io.rubinbft.orderer.testing.FabricFixtures;
import io.rubinbft.orderer.testing.StrangerSockets;
import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A network stranger (no key) and a consenter announcing absurd limits, against the real cluster
 * network on loopback with the orderer's link sizes: neither stops the honest links, and neither
 * ends the network thread (whose death is what {@code /healthz} reports as the cluster's failure).
 * Attackers connect from other loopback addresses (127.0.0.2 and up) than the honest nodes, as a
 * stranger on another host would.
 */
class ClusterNetworkStrangerTest {

  /** The orderer's link sizes (OrdererNode): 16 slots of 64 KiB each way. */
  private static final int LINK_SLOTS = 16;

  private static final int SLOT_BYTES = 64 * 1024;

  private record Received(X509Certificate peer, long epoch, String text) {}

  private final List<ClusterNetwork> nodes = new ArrayList<>();
  private final List<BlockingQueue<Received>> inboxes = new ArrayList<>();
  private final List<Socket> attackers = new ArrayList<>();

  @AfterEach
  void stop() {
    for (Socket socket : attackers) {
      try {
        socket.close();
      } catch (IOException e) {
        // Closing anyway.
      }
    }
    nodes.forEach(ClusterNetwork::close);
  }

  /**
   * Hundreds of idle connections and half-open handshakes (a frame header announcing a HELLO that
   * never comes, garbage) allocate no rings: the direct memory they take stays within a small
   * bound, where each used to cost a link's full rings. The honest nodes' links keep working
   * throughout, both ways, and neither network thread dies.
   */
  @Test
  void idleAndHalfOpenConnectionsTakeNoRingsAndStopNoLink() throws Exception {
    start(2, ChannelConfig.DEFAULT_MAX_MESSAGE_BYTES);
    exchange("before");
    System.gc();
    long directBefore = directMemoryUsed();

    for (int i = 0; i < 300; i++) {
      attackers.add(connectFrom("127.0.0." + (2 + i % 4), nodes.get(i % 2).localAddress()));
    }
    for (int i = 0; i < 100; i++) {
      Socket halfOpen = connectFrom("127.0.0.6", nodes.get(i % 2).localAddress());
      // A frame header announcing a HELLO of 4000 bytes, then nothing.
      halfOpen.getOutputStream().write(ByteBuffer.allocate(12).putInt(4000).putInt(1).array());
      attackers.add(halfOpen);
    }
    for (int i = 0; i < 20; i++) {
      Socket garbage = connectFrom("127.0.0.7", nodes.get(i % 2).localAddress());
      garbage.getOutputStream().write("GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      attackers.add(garbage);
    }
    Thread.sleep(1_000);
    long grown = directMemoryUsed() - directBefore;

    exchange("during");
    assertThat(grown)
        .as("direct memory taken by 420 unauthenticated connections")
        .isLessThan(24L * 1024 * 1024);
    assertThat(nodes.get(0).failure()).isEmpty();
    assertThat(nodes.get(1).failure()).isEmpty();

    // A node dialled anew (its old link closed) still gets through while the strangers wait.
    nodes.get(0).disconnect(nodes.get(1).localAddress());
    exchange("after a redial");
  }

  /**
   * A connection that does not finish its handshake within the deadline is closed by the node, so a
   * stranger cannot hold a handshake slot for ever.
   */
  @Test
  void aConnectionThatNeverHandshakesIsClosedAtTheDeadline() throws Exception {
    start(1, ChannelConfig.DEFAULT_MAX_MESSAGE_BYTES);
    Socket idle = connectFrom("127.0.0.2", nodes.get(0).localAddress());
    attackers.add(idle);
    long started = System.nanoTime();
    boolean closedByNode = StrangerSockets.closedByTheNode(idle, 30_000);

    assertThat(closedByNode).as("the node closed the idle connection").isTrue();
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started))
        .as("closed at the handshake deadline, well before the test's own 30 s bound")
        .isLessThan(20_000);
  }

  /**
   * A consenter whose HELLO announces a largest message of one byte is refused at the handshake:
   * sending to it must not throw out of the network thread (it used to end it for every channel).
   */
  @Test
  void aConsenterAnnouncingALargestMessageOfOneByteIsRefusedAtTheHandshake() throws Exception {
    start(2, ChannelConfig.DEFAULT_MAX_MESSAGE_BYTES);
    ClusterNetwork liar = startNode(3, 1);

    nodes.get(0).send(liar.localAddress(), "fixture", 0, bytes("to the liar"));
    Thread.sleep(1_500);
    exchange("after the liar");

    assertThat(nodes.get(0).failure()).isEmpty();
    assertThat(nodes.get(0).stats().connectedPeers()).isEqualTo(1);
    assertThat(inboxes.get(2)).isEmpty();
    assertThat(nodes.get(0).traffic().orElseThrow().selector().handshakesRejected()).isPositive();
  }

  /**
   * A consenter that accepts messages of 1 MiB (a sane limit, so its handshake passes) and is sent
   * a larger one: that frame is dropped and counted (it once made the send throw out of the link
   * and end the network thread), the link stays up, and the network thread goes on serving all.
   */
  @Test
  void aFrameLargerThanThePeerTakesIsDroppedAndNothingElse() throws Exception {
    start(2, ChannelConfig.DEFAULT_MAX_MESSAGE_BYTES);
    ClusterNetwork small = startNode(3, 1024 * 1024);
    nodes.get(0).send(small.localAddress(), "fixture", 0, bytes("fits"));
    assertThat(inboxes.get(2).poll(10, TimeUnit.SECONDS)).isNotNull();

    nodes.get(0).send(small.localAddress(), "fixture", 0, new byte[2 * 1024 * 1024]);
    Thread.sleep(500);
    exchange("after the failed link");
    nodes.get(0).send(small.localAddress(), "fixture", 1, bytes("fits again"));

    assertThat(inboxes.get(2).poll(10, TimeUnit.SECONDS).text()).isEqualTo("fits again");
    assertThat(nodes.get(0).failure()).isEmpty();
    assertThat(nodes.get(0).stats().droppedOversized()).isEqualTo(1);
    assertThat(nodes.get(0).stats().linksClosedOnError()).isZero();
  }

  /** Node 1 and node 2 send to each other; both messages arrive. */
  private void exchange(String text) throws InterruptedException {
    nodes.get(0).send(nodes.get(1).localAddress(), "fixture", 0, bytes(text + " 1->2"));
    nodes.get(1).send(nodes.get(0).localAddress(), "fixture", 0, bytes(text + " 2->1"));
    Received atTwo = inboxes.get(1).poll(20, TimeUnit.SECONDS);
    Received atOne = inboxes.get(0).poll(20, TimeUnit.SECONDS);
    assertThat(atTwo).as("%s: node 1 to node 2", text).isNotNull();
    assertThat(atOne).as("%s: node 2 to node 1", text).isNotNull();
    assertThat(atTwo.text()).isEqualTo(text + " 1->2");
    assertThat(atOne.text()).isEqualTo(text + " 2->1");
  }

  private void start(int count, int maxMessageBytes) throws Exception {
    for (int n = 1; n <= count; n++) {
      startNode(n, maxMessageBytes);
    }
  }

  /** Starts fixture orderer {@code n} on loopback with a handshake deadline of one second. */
  private ClusterNetwork startNode(int n, int maxMessageBytes) throws Exception {
    List<X509Certificate> consenters = new ArrayList<>();
    for (int orderer = 1; orderer <= 4; orderer++) {
      consenters.add(tlsCertificate(orderer));
    }
    Path tls = FabricFixtures.orderer(n).resolve("tls");
    Identity identity = new Identity(tlsCertificate(n), Pem.privateKey(tls.resolve("server.key")));
    ChannelConfig config =
        new ChannelConfig(identity, LINK_SLOTS, LINK_SLOTS, SLOT_BYTES, maxMessageBytes, 64)
            .withHandshakeTimeoutMillis(1_000);
    ClusterNetwork node =
        ClusterNetwork.start(
            TcpTransport.open(),
            config,
            new InetSocketAddress("127.0.0.1", 0),
            ClusterPeersForTests.anyOf(consenters));
    BlockingQueue<Received> inbox = new LinkedBlockingQueue<>();
    node.register(
        "fixture",
        (peer, epoch, message) ->
            inbox.add(new Received(peer, epoch, new String(message, StandardCharsets.UTF_8))));
    nodes.add(node);
    inboxes.add(inbox);
    return node;
  }

  private static Socket connectFrom(String sourceAddress, InetSocketAddress target)
      throws IOException {
    Socket socket = new Socket();
    socket.bind(new InetSocketAddress(sourceAddress, 0));
    socket.connect(target, 5_000);
    return socket;
  }

  private static long directMemoryUsed() {
    return ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
        .filter(pool -> pool.getName().equals("direct"))
        .mapToLong(BufferPoolMXBean::getMemoryUsed)
        .sum();
  }

  private static X509Certificate tlsCertificate(int orderer) {
    return Pem.certificates(FabricFixtures.orderer(orderer).resolve("tls/server.crt")).getFirst();
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
