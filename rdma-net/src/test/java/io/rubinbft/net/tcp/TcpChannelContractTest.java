package io.rubinbft.net.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.net.Channel;
import io.rubinbft.net.ChannelContractTest;
import io.rubinbft.net.ChannelState;
import io.rubinbft.net.DropReason;
import io.rubinbft.net.Messages;
import io.rubinbft.net.Received;
import io.rubinbft.net.SendResult;
import io.rubinbft.net.TamperingTransport.Injection;
import io.rubinbft.net.transport.Transport;
import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** The channel contract over TCP sockets on loopback, and what only a stream transport does. */
class TcpChannelContractTest extends ChannelContractTest {

  @Override
  protected Transport newTransport() throws IOException {
    return TcpTransport.open();
  }

  /**
   * Attack: a peer holding a consenter's keys reconnects again and again. Each link's rings, and
   * the reassembly and staging buffers of its messages (one kept between messages, one of a large
   * message left half sent), are freed when the link closes, not when the collector gets to them:
   * the direct memory in use stays where it was after every link, with no {@code System.gc}.
   */
  @Test
  void freesEachLinksDirectMemoryWhenItClosesNotWhenTheCollectorRuns() throws IOException {
    connectSendAndClose(); // whatever the selectors keep for their life is allocated now
    long before = directBytesUsed();
    for (int i = 1; i <= 100; i++) {
      connectSendAndClose();
      assertThat(directBytesUsed() - before)
          .as("direct bytes still held after %d links came and went", i)
          .isLessThan(1L << 20);
    }
  }

  private void connectSendAndClose() throws IOException {
    Channel[] pair = connectPair();
    Received received = new Received();
    send(pair[0], Messages.message(21, 0, 200 * 1024), pair[1], received);
    receive(pair[1], received, 1);
    UnsafeBuffer large = Messages.message(21, 1, 4 << 20);
    assertThat(pair[0].offer(large, 0, large.capacity())).isEqualTo(SendResult.SENT);
    for (int turn = 0; turn < 10; turn++) {
      pump.turn();
      pair[1].poll(received, Integer.MAX_VALUE);
    }
    assertThat(received.count()).as("the large message is still in flight").isEqualTo(1);
    pair[0].close();
    pump.until("the server side closed", () -> pair[1].state() == ChannelState.CLOSED);
  }

  private static long directBytesUsed() {
    return ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
        .filter(pool -> pool.getName().equals("direct"))
        .mapToLong(BufferPoolMXBean::getMemoryUsed)
        .sum();
  }

  /**
   * The backlog in config(...) is 16, a quarter of it per source address: from loopback, every
   * connection beyond the fourth closes the oldest, so sixteen of twenty are closed, oldest first,
   * and a peer that handshakes at once still gets through while the last four stay silent.
   */
  @Test
  void capsConnectionsThatNeverSayHelloClosingTheOldest() throws IOException {
    List<SocketChannel> silent = new ArrayList<>();
    try {
      for (int i = 0; i < 20; i++) {
        silent.add(SocketChannel.open(listener.localAddress()));
      }
      pump.until("silent connections refused", () -> server.stats().acceptsRefused() == 16);
      assertThat(accepted).isEmpty();
      pump.until("the oldest is closed", () -> readsEndOfStream(silent.getFirst()));

      Channel[] pair = connectPair();

      assertThat(pair[1].state()).isEqualTo(ChannelState.OPEN);
      assertThat(server.stats().handshakesTimedOut()).isZero();
    } finally {
      for (SocketChannel socket : silent) {
        socket.close();
      }
    }
  }

  /**
   * Attack: record a consenter's handshake (HELLO and AUTH, as they crossed the wire) and replay it
   * on a new connection, as a stranger on the network path could. The HELLO names the consenter's
   * certificate, but the AUTH was sealed under the old exchange's key and signs the old nonces: the
   * server rejects the handshake at once instead of holding the connection until its deadline.
   */
  @Test
  void aRecordedHandshakeReplayedOnANewConnectionIsRejectedAtOnce() throws IOException {
    connectPair();
    List<byte[]> handshake = clientTransport.firstFramesOf(0);
    long rejectedBefore = server.stats().handshakesRejected();

    try (SocketChannel replay = SocketChannel.open(listener.localAddress())) {
      replay.write(ByteBuffer.wrap(handshake.get(0)));
      replay.write(ByteBuffer.wrap(handshake.get(1)));
      pump.until(
          "the replayed handshake rejected",
          () -> server.stats().handshakesRejected() == rejectedBefore + 1);
      pump.until("the replay's connection closed", () -> readsEndOfStream(replay));
    }

    assertThat(accepted).hasSize(1);
    assertThat(server.stats().handshakesTimedOut()).isZero();
  }

  /** Reads what the server sent (its HELLO) without blocking; true once the server closed. */
  private static boolean readsEndOfStream(SocketChannel socket) {
    try {
      socket.configureBlocking(false);
      ByteBuffer buffer = ByteBuffer.allocate(8192);
      int read;
      while ((read = socket.read(buffer)) > 0) {
        buffer.clear();
      }
      return read < 0;
    } catch (IOException e) {
      return true;
    }
  }

  @Test
  void anUnframeableStreamClosesItsChannelNamingTheLength() throws IOException {
    Channel[] bad = connectPair();
    clientTransport.injectAfterNextFrame(Injection.OVERSIZED_LENGTH);
    Received received = new Received();
    send(bad[0], Messages.message(8, 0, 50), bad[1], received);
    pump.until("bad channel closed", () -> bad[1].state() == ChannelState.CLOSED);

    assertThat(server.stats().dropped(DropReason.OVERSIZED)).isEqualTo(1);
    assertThat(bad[1].closeReason())
        .hasValueSatisfying(reason -> assertThat(reason).contains("frame length is"));
  }
}
