package io.rubinbft.orderer.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.net.ChannelConfig;
import io.rubinbft.net.Identity;
import io.rubinbft.net.tcp.TcpTransport;
import io.rubinbft.orderer.crypto.Pem;
import io.rubinbft.orderer.memory.MemoryBudgets;
import io.rubinbft.orderer.memory.MessageLimits;
import io.rubinbft.orderer.testing.FabricFixtures;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Three nodes with the fixture orderers' TLS identities, over loopback TCP through rdma-net. */
class ClusterNetworkTest {

  private record Received(X509Certificate peer, long epoch, String text) {}

  private static final int MAX_MESSAGE = ChannelConfig.DEFAULT_MAX_MESSAGE_BYTES;

  private final List<ClusterNetwork> nodes = new ArrayList<>();
  private final List<BlockingQueue<Received>> inboxes = new ArrayList<>();

  @AfterEach
  void stop() {
    nodes.forEach(ClusterNetwork::close);
  }

  @Test
  void consentersExchangeChannelMessagesAuthenticatedByCertificate() throws Exception {
    start(3, "fixture");

    for (int i = 0; i < 50; i++) {
      nodes.get(0).send(nodes.get(1).localAddress(), "fixture", 0, bytes("one-" + i));
      nodes.get(2).send(nodes.get(1).localAddress(), "fixture", 0, bytes("three-" + i));
    }

    List<String> fromOne = new ArrayList<>();
    List<String> fromThree = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      Received r = inboxes.get(1).poll(30, TimeUnit.SECONDS);
      assertThat(r).as("message %d", i).isNotNull();
      (r.peer().equals(tlsCertificate(1)) ? fromOne : fromThree).add(r.text());
    }
    assertThat(fromOne).containsExactlyElementsOf(expected("one-"));
    assertThat(fromThree).containsExactlyElementsOf(expected("three-"));
  }

  @Test
  void framesOfChannelsANodeDoesNotServeAreDroppedAndCounted() throws Exception {
    start(2, "fixture");

    nodes.get(0).send(nodes.get(1).localAddress(), "otherchannel", 0, bytes("lost"));
    nodes.get(0).send(nodes.get(1).localAddress(), "fixture", 0, bytes("kept"));

    assertThat(inboxes.get(1).poll(30, TimeUnit.SECONDS).text()).isEqualTo("kept");
    assertThat(nodes.get(1).stats().droppedUnknownChannel()).isEqualTo(1);
  }

  @Test
  void framesCarryTheSendersEpochAndADisconnectedPeerIsDialedAgainOnTheNextSend() throws Exception {
    start(2, "fixture");

    nodes.get(0).send(nodes.get(1).localAddress(), "fixture", 17, bytes("epoch 17"));
    Received first = inboxes.get(1).poll(30, TimeUnit.SECONDS);
    nodes.get(0).disconnect(nodes.get(1).localAddress());
    nodes.get(0).send(nodes.get(1).localAddress(), "fixture", 23, bytes("epoch 23"));
    Received second = inboxes.get(1).poll(30, TimeUnit.SECONDS);

    assertThat(first.epoch()).isEqualTo(17);
    assertThat(first.text()).isEqualTo("epoch 17");
    assertThat(second.epoch()).isEqualTo(23);
    assertThat(second.text()).isEqualTo("epoch 23");
  }

  @Test
  void aPeerWhoseCertificateIsNotAConsentersIsRefused() throws Exception {
    start(1, "fixture");
    Path adminTls = FabricFixtures.ordererOrg().resolve("users/Admin@example.com/tls");
    Identity admin =
        new Identity(
            Pem.certificates(adminTls.resolve("client.crt")).getFirst(),
            Pem.privateKey(adminTls.resolve("client.key")));
    try (ClusterNetwork intruder =
        ClusterNetwork.start(
            TcpTransport.open(),
            ChannelConfig.defaults(admin),
            new InetSocketAddress("127.0.0.1", 0),
            ClusterPeersForTests.anyOf(List.of(tlsCertificate(1))))) {
      intruder.send(nodes.get(0).localAddress(), "fixture", 0, bytes("forged"));

      assertThat(inboxes.get(0).poll(2, TimeUnit.SECONDS)).isNull();
      assertThat(intruder.stats().connectedPeers()).isZero();
    }
  }

  /**
   * Attack: a consenter (its certificate valid for the channel) answers at another consenter's
   * address, e.g. after taking over its IP or DNS name, to receive what is meant for it. The
   * dialler expects orderer 2's certificate at that address and refuses orderer 3's; the same
   * dialler reaches orderer 2 at its own address.
   */
  @Test
  void aDialledLinkMustPresentTheCertificateOfTheConsenterDialled() throws Exception {
    start(3, "fixture");
    InetSocketAddress atTwo = nodes.get(1).localAddress();
    InetSocketAddress atThree = nodes.get(2).localAddress();
    Map<InetSocketAddress, X509Certificate> expected =
        Map.of(atTwo, tlsCertificate(2), atThree, tlsCertificate(2));
    ClusterPeers byAddress =
        new ClusterPeers() {
          @Override
          public Optional<String> rejectInbound(X509Certificate certificate) {
            return Optional.empty();
          }

          @Override
          public Optional<String> rejectDialled(
              InetSocketAddress dialled, X509Certificate certificate) {
            return certificate.equals(expected.get(dialled))
                ? Optional.empty()
                : Optional.of("not the consenter dialled");
          }
        };
    try (ClusterNetwork dialler =
        ClusterNetwork.start(
            TcpTransport.open(),
            ChannelConfig.defaults(identity(1)),
            new InetSocketAddress("127.0.0.1", 0),
            byAddress)) {
      dialler.send(atThree, "fixture", 0, bytes("meant for orderer 2"));
      dialler.send(atTwo, "fixture", 0, bytes("to orderer 2"));

      assertThat(inboxes.get(1).poll(30, TimeUnit.SECONDS).text()).isEqualTo("to orderer 2");
      assertThat(inboxes.get(2).poll(2, TimeUnit.SECONDS)).isNull();
      assertThat(dialler.connectedAddresses()).doesNotContain(atThree);
    }
  }

  /**
   * Expired and not yet valid cluster certificates are refused, counted and logged: the receiving
   * node's clock is set after the fixture certificates' end, then before their start.
   */
  @Test
  void aCertificateOutsideItsValidityPeriodIsRefusedAndCounted() throws Exception {
    start(1, "fixture");
    X509Certificate certificate = tlsCertificate(1);
    for (Instant when :
        List.of(
            certificate.getNotAfter().toInstant().plusSeconds(1),
            certificate.getNotBefore().toInstant().minusSeconds(1))) {
      try (ClusterNetwork judge =
          ClusterNetwork.start(
              TcpTransport.open(),
              ChannelConfig.defaults(identity(2)),
              new InetSocketAddress("127.0.0.1", 0),
              ClusterPeersForTests.anyOf(List.of(tlsCertificate(1))),
              1 << 20,
              Clock.fixed(when, ZoneOffset.UTC))) {
        BlockingQueue<Received> inbox = new LinkedBlockingQueue<>();
        judge.register(
            "fixture", (peer, epoch, message) -> inbox.add(new Received(peer, epoch, "delivered")));
        nodes.get(0).send(judge.localAddress(), "fixture", 0, bytes("from orderer 1"));

        assertThat(inbox.poll(2, TimeUnit.SECONDS)).as("at %s", when).isNull();
        assertThat(judge.stats().certificatesRefused()).as("at %s", when).isPositive();
        nodes.get(0).disconnect(judge.localAddress());
      }
    }
  }

  private static Identity identity(int orderer) {
    Path tls = FabricFixtures.orderer(orderer).resolve("tls");
    return new Identity(tlsCertificate(orderer), Pem.privateKey(tls.resolve("server.key")));
  }

  /**
   * The network thread waits in select with no timeout when it has nothing to do, so a frame that
   * another thread queues is sent only because the queuing wakes it: without that wake-up it would
   * never go. A seeded schedule sends some frames right after the previous one arrived (while the
   * thread is still busy or just about to wait) and some after a pause longer than its last timed
   * duty (publishing the traffic copy), when it waits with no timeout. The 10 s bound per frame is
   * a liveness guard, not a speed check.
   */
  @Test
  void framesQueuedFromAnotherThreadWakeTheWaitingNetworkThread() throws Exception {
    long seed = Long.getLong("cluster.seed", System.nanoTime());
    System.out.println("framesQueuedFromAnotherThreadWakeTheWaitingNetworkThread seed=" + seed);
    Random random = new Random(seed);
    start(2, "fixture");

    for (int round = 0; round < 200; round++) {
      pause(random);
      nodes.get(0).send(nodes.get(1).localAddress(), "fixture", round, bytes("round " + round));
      Received received = inboxes.get(1).poll(10, TimeUnit.SECONDS);

      assertThat(received).as("round %d of seed %d: a lost wake-up", round, seed).isNotNull();
      assertThat(received.epoch()).as("seed %d", seed).isEqualTo(round);
    }
  }

  /** Nothing, a spin of up to 50 us, a sleep of up to 2 ms, or (one in 20) 250 to 400 ms. */
  private static void pause(Random random) throws InterruptedException {
    switch (random.nextInt(20)) {
      case 0 -> Thread.sleep(250 + random.nextInt(150));
      case 1, 2, 3, 4, 5, 6 -> Thread.sleep(Duration.ofNanos(random.nextInt(2_000_000)));
      case 7, 8, 9, 10, 11, 12 -> {
        long until = System.nanoTime() + random.nextInt(50_000);
        while (System.nanoTime() - until < 0) {
          Thread.onSpinWait();
        }
      }
      default -> {}
    }
  }

  /**
   * A peer that is down refuses the connection; nothing but the reconnect back-off's end wakes the
   * network thread to dial again, and the queued frame goes when the peer is up.
   */
  @Test
  void aPeerThatComesUpLaterGetsTheFramesQueuedForIt() throws Exception {
    InetSocketAddress later;
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      later = new InetSocketAddress("127.0.0.1", free.getLocalPort());
    }
    start(1, "fixture");
    nodes.get(0).send(later, "fixture", 0, bytes("queued while down"));
    Thread.sleep(1_000);

    startNode(2, "fixture", later);

    Received received = inboxes.get(1).poll(10, TimeUnit.SECONDS);
    assertThat(received).as("delivered after a reconnect").isNotNull();
    assertThat(received.text()).isEqualTo("queued while down");
  }

  /**
   * The counters and open links are published some time after they change; an idle network
   * publishes nothing more, so the last change must not be left unpublished when traffic stops.
   */
  @Test
  void theOpenLinksArePublishedAfterTheTrafficStops() throws Exception {
    start(2, "fixture");
    nodes.get(0).send(nodes.get(1).localAddress(), "fixture", 0, bytes("one"));
    assertThat(inboxes.get(1).poll(10, TimeUnit.SECONDS)).isNotNull();

    long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (nodes.get(0).connectedAddresses().isEmpty() && System.nanoTime() - giveUp < 0) {
      Thread.sleep(10);
    }

    assertThat(nodes.get(0).connectedAddresses()).containsExactly(nodes.get(1).localAddress());
    assertThat(nodes.get(0).traffic()).isPresent();
  }

  /**
   * A peer that took the TCP connection and then answers nothing (a stopped process: the kernel
   * completes the connection, nobody reads) gets frames queued for it while the node keeps sending;
   * its link holds at most its byte budget, the oldest frames dropped and counted, and another peer
   * still gets every frame sent to it.
   */
  @Test
  void aStoppedPeersLinkStaysWithinItsBudgetWhileMessagesKeepComing() throws Exception {
    long budget = 256 << 10;
    try (ServerSocket stopped = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      InetSocketAddress stoppedPeer = new InetSocketAddress("127.0.0.1", stopped.getLocalPort());
      startNode(1, "fixture", new InetSocketAddress("127.0.0.1", 0), budget, MAX_MESSAGE);
      startNode(2, "fixture", new InetSocketAddress("127.0.0.1", 0), budget, MAX_MESSAGE);
      byte[] block = new byte[10 << 10];

      for (int i = 0; i < 2_000; i++) {
        nodes.get(0).send(stoppedPeer, "fixture", 0, block);
        assertThat(nodes.get(0).queuedBytes(stoppedPeer))
            .as("after frame %d", i)
            .isLessThanOrEqualTo(budget);
        if (i % 100 == 0) {
          nodes.get(0).send(nodes.get(1).localAddress(), "fixture", i, bytes("live " + i));
        }
      }

      for (int i = 0; i < 2_000; i += 100) {
        Received received = inboxes.get(1).poll(30, TimeUnit.SECONDS);
        assertThat(received).as("frame %d to the live peer", i).isNotNull();
        assertThat(received.text()).isEqualTo("live " + i);
      }
      assertThat(nodes.get(0).stats().droppedSendQueueFull())
          .as("frames for the stopped peer beyond its budget")
          .isGreaterThanOrEqualTo(2_000 - budget / block.length - 1);
      assertThat(nodes.get(0).failure()).isEmpty();
    }
  }

  /**
   * With the node's own budgets (MemoryBudgets' link budget, the transport's message limit), a
   * maximal proposal queued on one link between votes loses none of them, nor is it lost: before,
   * the proposal, larger than the whole link budget, pushed out the votes queued before it, and the
   * first vote after it pushed out the proposal.
   */
  @Test
  void aMaximalProposalAndTheVotesAroundItOnOneLinkAllArrive() throws Exception {
    int transport = MessageLimits.TRANSPORT_MAX_MESSAGE_BYTES;
    InetSocketAddress later;
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      later = new InetSocketAddress("127.0.0.1", free.getLocalPort());
    }
    startNode(
        1,
        "fixture",
        new InetSocketAddress("127.0.0.1", 0),
        MemoryBudgets.standard().peerLinkBytes(),
        transport);
    byte[] proposal = new byte[transport - MessageLimits.MAX_FRAME_HEADER_BYTES];
    for (int vote = 0; vote < 100; vote++) {
      nodes.get(0).send(later, "fixture", 0, bytes("vote " + vote));
      if (vote == 49) {
        nodes.get(0).send(later, "fixture", 0, proposal);
      }
    }

    startNode(2, "fixture", later, MemoryBudgets.standard().peerLinkBytes(), transport);

    List<Integer> lengths = new ArrayList<>();
    for (int frame = 0; frame < 101; frame++) {
      Received received = inboxes.get(1).poll(60, TimeUnit.SECONDS);
      assertThat(received).as("frame %d of 101 (got %s)", frame, lengths).isNotNull();
      lengths.add(received.text().length());
      if (frame != 50) {
        assertThat(received.text()).isEqualTo("vote " + (frame < 50 ? frame : frame - 1));
      }
    }
    assertThat(lengths.get(50)).isEqualTo(proposal.length);
    assertThat(nodes.get(0).stats().droppedSendQueueFull()).isZero();
  }

  /**
   * A frame larger than the transport carries is dropped when sent, and one larger than the peer
   * accepts (it announced a smaller limit in its handshake) is dropped when its turn comes: neither
   * throws on the network thread, and the link carries the next frame.
   */
  @Test
  void anOversizedMessageIsDroppedWithoutClosingTheNetworkThread() throws Exception {
    startNode(1, "fixture", new InetSocketAddress("127.0.0.1", 0), 64 << 20, 4 << 20);
    startNode(2, "fixture", new InetSocketAddress("127.0.0.1", 0), 64 << 20, 1 << 20);
    InetSocketAddress peer = nodes.get(1).localAddress();
    nodes.get(0).send(peer, "fixture", 0, bytes("first"));
    assertThat(inboxes.get(1).poll(30, TimeUnit.SECONDS).text()).isEqualTo("first");

    nodes.get(0).send(peer, "fixture", 0, new byte[5 << 20]);
    nodes.get(0).send(peer, "fixture", 0, new byte[2 << 20]);
    nodes.get(0).send(peer, "fixture", 0, bytes("after"));

    Received after = inboxes.get(1).poll(30, TimeUnit.SECONDS);
    assertThat(after).as("the frame after the oversized ones").isNotNull();
    assertThat(after.text()).isEqualTo("after");
    assertThat(nodes.get(0).stats().droppedOversized()).isEqualTo(2);
    assertThat(nodes.get(0).failure()).isEmpty();
  }

  private void start(int count, String channel) throws Exception {
    for (int n = 1; n <= count; n++) {
      startNode(n, channel, new InetSocketAddress("127.0.0.1", 0));
    }
  }

  /** Starts fixture orderer {@code n} at {@code listen}, its inbox next in {@link #inboxes}. */
  private void startNode(int n, String channel, InetSocketAddress listen) throws Exception {
    startNode(n, channel, listen, 64 << 20, MAX_MESSAGE);
  }

  private void startNode(
      int n, String channel, InetSocketAddress listen, long linkBudget, int maxMessageBytes)
      throws Exception {
    List<X509Certificate> consenters = new ArrayList<>();
    for (int orderer = 1; orderer <= 4; orderer++) {
      consenters.add(tlsCertificate(orderer));
    }
    Path tls = FabricFixtures.orderer(n).resolve("tls");
    Identity identity = new Identity(tlsCertificate(n), Pem.privateKey(tls.resolve("server.key")));
    ChannelConfig defaults = ChannelConfig.defaults(identity);
    ClusterNetwork node =
        ClusterNetwork.start(
            TcpTransport.open(),
            new ChannelConfig(
                identity,
                defaults.sendSlots(),
                defaults.receiveSlots(),
                defaults.slotBytes(),
                maxMessageBytes,
                defaults.acceptBacklog()),
            listen,
            ClusterPeersForTests.anyOf(consenters),
            linkBudget);
    BlockingQueue<Received> inbox = new LinkedBlockingQueue<>();
    node.register(
        channel,
        (peer, epoch, message) ->
            inbox.add(new Received(peer, epoch, new String(message, StandardCharsets.UTF_8))));
    nodes.add(node);
    inboxes.add(inbox);
  }

  private static X509Certificate tlsCertificate(int orderer) {
    return Pem.certificates(FabricFixtures.orderer(orderer).resolve("tls/server.crt")).getFirst();
  }

  private static List<String> expected(String prefix) {
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      texts.add(prefix + i);
    }
    return texts;
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
