package io.rubinbft.orderer.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.net.ChannelConfig;
import io.rubinbft.net.Identity;
import io.rubinbft.net.PeerAuthenticator;
import io.rubinbft.net.tcp.TcpTransport;
import io.rubinbft.orderer.testing.FabricFixtures;
import io.rubinbft.orderer.tls.Pem;
import java.net.InetSocketAddress;
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

/** Three nodes with the fixture orderers' TLS identities, over loopback TCP through rdma-net. */
class ClusterNetworkTest {

  private record Received(X509Certificate peer, long epoch, String text) {}

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
            PeerAuthenticator.pinned(List.of(tlsCertificate(1))))) {
      intruder.send(nodes.get(0).localAddress(), "fixture", 0, bytes("forged"));

      assertThat(inboxes.get(0).poll(2, TimeUnit.SECONDS)).isNull();
      assertThat(intruder.stats().connectedPeers()).isZero();
    }
  }

  private void start(int count, String channel) throws Exception {
    List<X509Certificate> consenters = new ArrayList<>();
    for (int n = 1; n <= 4; n++) {
      consenters.add(tlsCertificate(n));
    }
    for (int n = 1; n <= count; n++) {
      Path tls = FabricFixtures.orderer(n).resolve("tls");
      Identity identity =
          new Identity(tlsCertificate(n), Pem.privateKey(tls.resolve("server.key")));
      ClusterNetwork node =
          ClusterNetwork.start(
              TcpTransport.open(),
              ChannelConfig.defaults(identity),
              new InetSocketAddress("127.0.0.1", 0),
              PeerAuthenticator.pinned(consenters));
      BlockingQueue<Received> inbox = new LinkedBlockingQueue<>();
      node.register(
          channel,
          (peer, epoch, message) ->
              inbox.add(new Received(peer, epoch, new String(message, StandardCharsets.UTF_8))));
      nodes.add(node);
      inboxes.add(inbox);
    }
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
