package io.rubinbft.orderer.adversary;

import io.rubinbft.net.Channel;
import io.rubinbft.net.ChannelConfig;
import io.rubinbft.net.ChannelState;
import io.rubinbft.net.Interest;
import io.rubinbft.net.SelectionKey;
import io.rubinbft.net.Selector;
import io.rubinbft.net.SendResult;
import io.rubinbft.net.ServerChannel;
import io.rubinbft.net.tcp.TcpTransport;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Supplier;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A stolen consenter identity on rdma-net's own selector, below the cluster layer: it authenticates
 * with the production handshake, then sends whatever bytes it likes as cluster frames (malformed
 * headers, sizes beyond what the peer announced), or accepts the honest nodes' connections and
 * never reads them (withheld credit: their frames for it stay in its receive window forever). One
 * thread drives the selector; commands reach it through a queue.
 */
// close() waits for what it started to end; a test interrupted there should fail on the
// InterruptedException, so close() declares it rather than swallowing it (javac's "try" lint).
@SuppressWarnings("try")
final class RawConsenterLinks implements AutoCloseable {

  private final Selector selector;
  private final Thread thread;
  private final ConcurrentLinkedQueue<Runnable> commands = new ConcurrentLinkedQueue<>();
  private final List<Flood> floods = new ArrayList<>();
  private final List<ServerChannel> servers = new ArrayList<>();
  private volatile boolean running = true;

  private record Flood(Channel channel, Supplier<byte[]> frames) {}

  RawConsenterLinks(ChannelConfig config) throws IOException {
    this.selector = Selector.open(TcpTransport.open(), config);
    this.thread = Thread.ofPlatform().name("raw-consenter").daemon().start(this::run);
  }

  /**
   * Connects to {@code peer} and, once the handshake is done, sends the frames {@code frames}
   * supplies as fast as the peer's credit allows, until closed.
   */
  void flood(InetSocketAddress peer, Supplier<byte[]> frames) {
    command(
        () -> {
          try {
            Channel channel = selector.connect(peer, certificate -> Optional.empty());
            channel.key().interests(EnumSet.of(Interest.CONNECT));
            floods.add(new Flood(channel, frames));
          } catch (IOException e) {
            throw new IllegalStateException(e);
          }
        });
  }

  /** Accepts the honest nodes' connections at {@code address} and never reads from them. */
  void listenWithoutReading(InetSocketAddress address) {
    command(
        () -> {
          try {
            ServerChannel server = selector.listen(address, certificate -> Optional.empty());
            server.key().interests(EnumSet.of(Interest.ACCEPT));
            servers.add(server);
          } catch (IOException e) {
            throw new IllegalStateException(e);
          }
        });
  }

  private void command(Runnable command) {
    commands.add(command);
    selector.wakeup();
  }

  private void run() {
    try (selector) {
      while (running) {
        for (Runnable command = commands.poll(); command != null; command = commands.poll()) {
          command.run();
        }
        for (Flood flood : floods) {
          send(flood);
        }
        selector.select(this::onReady, 5);
      }
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void send(Flood flood) {
    if (flood.channel().state() != ChannelState.OPEN) {
      return;
    }
    for (int i = 0; i < 64; i++) {
      byte[] frame = flood.frames().get();
      SendResult result = flood.channel().offer(new UnsafeBuffer(frame), 0, frame.length);
      if (result != SendResult.SENT) {
        return;
      }
    }
  }

  private void onReady(SelectionKey key) {
    if (key.isReady(Interest.ACCEPT)) {
      for (ServerChannel server : servers) {
        for (Optional<Channel> in = server.accept(); in.isPresent(); in = server.accept()) {
          // Never RECEIVE: what the peer sends stays unread and its credit is never returned.
          in.get().key().interests(EnumSet.noneOf(Interest.class));
        }
      }
      return;
    }
    if (key.isReady(Interest.CONNECT)) {
      key.channel().key().interests(EnumSet.of(Interest.SEND));
    }
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    selector.wakeup();
    thread.join(5_000);
  }
}
