package io.rubinbft.net.cli;

import io.rubinbft.net.Channel;
import io.rubinbft.net.ChannelConfig;
import io.rubinbft.net.ChannelState;
import io.rubinbft.net.Identity;
import io.rubinbft.net.Interest;
import io.rubinbft.net.KeyHandler;
import io.rubinbft.net.MessageHandler;
import io.rubinbft.net.PeerAuthenticator;
import io.rubinbft.net.SelectionKey;
import io.rubinbft.net.Selector;
import io.rubinbft.net.SendResult;
import io.rubinbft.net.ServerChannel;
import io.rubinbft.net.transport.Transport;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.jspecify.annotations.Nullable;

/**
 * The same echo over the selector and channels: authenticated, encrypted, credit flow-controlled,
 * on whichever transport the supplier makes. The server echoes each message from the receive slot
 * it arrived in straight into its send ring.
 */
final class ChannelEcho {

  private final Supplier<Transport> transports;
  private final Identity server;
  private final Identity client;
  private final boolean serverSpins;

  /**
   * @param serverSpins whether the echo server busy-polls ({@code selectNow}) instead of waiting in
   *     {@code select} with no timeout (as plain NIO's server): separates the stack's cost from the
   *     wake-up's
   */
  ChannelEcho(
      Supplier<Transport> transports, Identity server, Identity client, boolean serverSpins) {
    this.transports = transports;
    this.server = server;
    this.client = client;
    this.serverSpins = serverSpins;
  }

  EchoResult run(int size, int roundTrips, int streamed, int window)
      throws IOException, InterruptedException {
    AtomicBoolean stop = new AtomicBoolean();
    Selector serverSelector = Selector.open(transports.get(), ChannelConfig.defaults(server));
    ServerChannel listener =
        serverSelector.listen(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), pinned(client));
    listener.key().addInterest(Interest.ACCEPT);
    Thread echo =
        Thread.ofPlatform()
            .name("channel-echo")
            .start(() -> serve(serverSelector, stop, serverSpins));
    try (Selector selector = Selector.open(transports.get(), ChannelConfig.defaults(client))) {
      Channel channel = selector.connect(listener.localAddress(), pinned(server));
      while (channel.state() != ChannelState.OPEN) {
        selector.selectNow(key -> {});
        if (channel.state() == ChannelState.CLOSED) {
          throw new IOException("connect failed: " + channel.closeReason().orElse(""));
        }
      }
      return measure(selector, channel, size, roundTrips, streamed, window);
    } finally {
      stop.set(true);
      serverSelector.wakeup();
      echo.join();
    }
  }

  private static EchoResult measure(
      Selector selector, Channel channel, int size, int roundTrips, int streamed, int window)
      throws IOException {
    UnsafeBuffer message = new UnsafeBuffer(new byte[size]);
    int[] received = new int[1];
    // One handler for the whole run: the client loop allocates nothing per turn.
    MessageHandler count = (buffer, offset, length) -> received[0]++;
    long[] latencies = new long[roundTrips];
    for (int i = 0; i < roundTrips; i++) {
      long start = System.nanoTime();
      offer(selector, channel, message);
      int target = received[0] + 1;
      while (received[0] < target) {
        selector.selectNow(key -> {});
        channel.poll(count, Integer.MAX_VALUE);
      }
      latencies[i] = System.nanoTime() - start;
    }
    received[0] = 0;
    long start = System.nanoTime();
    int sent = 0;
    while (received[0] < streamed) {
      while (sent < streamed
          && sent - received[0] < window
          && channel.offer(message, 0, size) == SendResult.SENT) {
        sent++;
      }
      selector.selectNow(key -> {});
      channel.poll(count, Integer.MAX_VALUE);
    }
    return new EchoResult(latencies, streamed, System.nanoTime() - start, size);
  }

  private static void offer(Selector selector, Channel channel, UnsafeBuffer message)
      throws IOException {
    while (channel.offer(message, 0, message.capacity()) != SendResult.SENT) {
      selector.selectNow(key -> {});
    }
  }

  private static void serve(Selector selector, AtomicBoolean stop, boolean spin) {
    Echoer echoer = new Echoer();
    try (selector) {
      while (!stop.get()) {
        if (spin) {
          selector.selectNow(echoer);
        } else {
          selector.select(echoer);
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("channel echo server failed", e);
    }
  }

  private static PeerAuthenticator pinned(Identity peer) {
    return PeerAuthenticator.pinned(List.of(peer.certificate()));
  }

  /**
   * Accepts, then echoes each message; one the channel cannot take yet is kept and retried when the
   * key is ready for SEND, and nothing more is polled until it has gone.
   */
  private static final class Echoer implements KeyHandler {
    private final UnsafeBuffer pending =
        new UnsafeBuffer(new byte[ChannelConfig.DEFAULT_MAX_MESSAGE_BYTES]);
    // One handler for the whole run, as the client's: the server allocates nothing per message.
    private final MessageHandler echo = this::echo;
    private int pendingLength = -1;
    private @Nullable Channel current;

    @Override
    public void onReady(SelectionKey key) {
      if (key.isReady(Interest.ACCEPT)) {
        key.serverChannel()
            .accept()
            .ifPresent(channel -> channel.key().interests(EnumSet.of(Interest.RECEIVE)));
        return;
      }
      current = key.channel();
      if (pendingLength >= 0) {
        if (current.offer(pending, 0, pendingLength) != SendResult.SENT) {
          return;
        }
        pendingLength = -1;
        key.removeInterest(Interest.SEND);
      }
      while (pendingLength < 0 && current.poll(echo, 1) == 1) {
        // One at a time, so at most one message waits for credit.
      }
    }

    private void echo(DirectBuffer buffer, int offset, int length) {
      if (Objects.requireNonNull(current).offer(buffer, offset, length) != SendResult.SENT) {
        pending.putBytes(0, buffer, offset, length);
        pendingLength = length;
        current.key().addInterest(Interest.SEND);
      }
    }
  }
}
