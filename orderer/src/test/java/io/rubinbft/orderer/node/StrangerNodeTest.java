package io.rubinbft.orderer.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.orderer.identity.EnvelopeFactory;
import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A network stranger (no key) against four real nodes on loopback ({@link LocalCluster}): idle
 * connections and half-open handshakes on every cluster port, and connections that send one byte
 * and wait (slowloris) on every operations and admin port. The nodes keep ordering, take no rings
 * for the strangers' connections, and every {@code /healthz} answers 200 in time. The strangers
 * connect from 127.0.0.2-5, as from other hosts.
 */
class StrangerNodeTest {

  @TempDir Path dir;

  @AutoClose private LocalCluster cluster;

  private final List<Socket> strangers = new ArrayList<>();

  @AfterEach
  void hangUp() throws IOException {
    for (Socket socket : strangers) {
      socket.close();
    }
  }

  @Test
  void idleHalfOpenAndSlowConnectionsOnEveryPortStopNoNode() throws Exception {
    cluster = LocalCluster.generate(dir);
    cluster.startAndJoin();
    EnvelopeFactory client = new EnvelopeFactory(cluster.clientIdentity(), Clock.systemUTC());
    cluster.submit(client, 10);
    cluster.awaitTransactions(10);
    System.gc();
    long directBefore = directMemoryUsed();

    for (OrdererNode node : cluster.nodes) {
      for (int i = 0; i < 60; i++) {
        strangers.add(connect(source(i), node.clusterAddress()));
      }
      for (int i = 0; i < 20; i++) {
        Socket halfOpen = connect(source(i), node.clusterAddress());
        // A frame header announcing a HELLO of 4000 bytes, then nothing.
        halfOpen.getOutputStream().write(ByteBuffer.allocate(12).putInt(4000).putInt(1).array());
        strangers.add(halfOpen);
      }
      for (int i = 0; i < 4; i++) {
        strangers.add(slowloris(node.operationsAddress()));
        strangers.add(slowloris(node.adminAddress()));
      }
    }
    Thread.sleep(1_000);
    long grown = directMemoryUsed() - directBefore;

    cluster.submit(client, 20);
    cluster.awaitTransactions(30);
    for (OrdererNode node : cluster.nodes) {
      assertThat(healthz(node)).as("/healthz of %s", node.operationsAddress()).isEqualTo(200);
    }
    assertThat(grown)
        .as("direct memory taken by 320 unauthenticated cluster connections")
        .isLessThan(64L * 1024 * 1024);
  }

  private static String source(int i) {
    return "127.0.0." + (2 + i % 4);
  }

  private static Socket connect(String source, InetSocketAddress target) throws IOException {
    Socket socket = new Socket();
    socket.bind(new InetSocketAddress(source, 0));
    socket.connect(target, 5_000);
    return socket;
  }

  private static Socket slowloris(InetSocketAddress target) throws IOException {
    Socket socket = connect("127.0.0.5", target);
    socket.getOutputStream().write('G');
    socket.getOutputStream().flush();
    return socket;
  }

  /** /healthz's status, which must come within 10 s. */
  private static int healthz(OrdererNode node) throws Exception {
    URI uri = URI.create("http://127.0.0.1:" + node.operationsAddress().getPort() + "/healthz");
    try (HttpClient http = HttpClient.newHttpClient()) {
      return http.send(
              HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build(),
              BodyHandlers.discarding())
          .statusCode();
    }
  }

  private static long directMemoryUsed() {
    return ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
        .filter(pool -> pool.getName().equals("direct"))
        .mapToLong(BufferPoolMXBean::getMemoryUsed)
        .sum();
  }
}
