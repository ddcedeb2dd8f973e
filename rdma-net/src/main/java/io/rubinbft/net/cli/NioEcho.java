package io.rubinbft.net.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

/**
 * The baseline: a plain java.nio echo with length-prefixed messages, one selector thread on the
 * server and a busy-polling client, as a hand-written NIO replica network would be.
 */
final class NioEcho {

  private NioEcho() {}

  static EchoResult run(int size, int roundTrips, int streamed, int window)
      throws IOException, InterruptedException {
    try (ServerSocketChannel server = ServerSocketChannel.open()) {
      server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      Thread echo = Thread.ofPlatform().name("nio-echo").start(() -> serve(server, size));
      EchoResult result;
      try (SocketChannel client = SocketChannel.open(server.getLocalAddress())) {
        client.setOption(StandardSocketOptions.TCP_NODELAY, true);
        client.configureBlocking(false);
        result = measure(client, size, roundTrips, streamed, window);
      }
      echo.join();
      return result;
    }
  }

  private static EchoResult measure(
      SocketChannel client, int size, int roundTrips, int streamed, int window) throws IOException {
    ByteBuffer out = ByteBuffer.allocateDirect(Integer.BYTES + size);
    out.putInt(size).position(out.capacity()).flip();
    ByteBuffer in = ByteBuffer.allocateDirect(Math.max(1 << 20, 4 * (size + Integer.BYTES)));
    long[] latencies = new long[roundTrips];
    for (int i = 0; i < roundTrips; i++) {
      long start = System.nanoTime();
      send(client, out);
      awaitEchoes(client, in, size, 1);
      latencies[i] = System.nanoTime() - start;
    }
    long start = System.nanoTime();
    int sent = 0;
    int received = 0;
    while (received < streamed) {
      while (sent < streamed && sent - received < window) {
        send(client, out);
        sent++;
      }
      received += awaitEchoes(client, in, size, 1);
    }
    return new EchoResult(latencies, streamed, System.nanoTime() - start, size);
  }

  private static void send(SocketChannel client, ByteBuffer out) throws IOException {
    out.rewind();
    while (out.hasRemaining()) {
      client.write(out);
    }
  }

  /** Reads until at least {@code atLeast} whole echoes arrived; returns how many did. */
  private static int awaitEchoes(SocketChannel client, ByteBuffer in, int size, int atLeast)
      throws IOException {
    int frame = Integer.BYTES + size;
    int complete = 0;
    while (complete < atLeast) {
      if (client.read(in) < 0) {
        throw new IOException("echo server closed");
      }
      complete = in.position() / frame;
    }
    int leftover = in.position() - complete * frame;
    in.flip().position(complete * frame);
    in.compact();
    if (in.position() != leftover) {
      throw new IllegalStateException("kept " + in.position() + " bytes, not " + leftover);
    }
    return complete;
  }

  private static void serve(ServerSocketChannel server, int size) {
    try (SocketChannel socket = server.accept();
        Selector selector = Selector.open()) {
      socket.setOption(StandardSocketOptions.TCP_NODELAY, true);
      socket.configureBlocking(false);
      socket.register(selector, SelectionKey.OP_READ);
      ByteBuffer buffer = ByteBuffer.allocateDirect(Math.max(1 << 20, 4 * (size + Integer.BYTES)));
      while (selector.select() >= 0) {
        selector.selectedKeys().clear();
        if (socket.read(buffer) < 0) {
          return;
        }
        echoWhole(socket, buffer, size);
      }
    } catch (IOException e) {
      throw new IllegalStateException("nio echo server failed", e);
    }
  }

  /** Writes back every whole message in {@code buffer}, keeping a partial one. */
  private static void echoWhole(SocketChannel socket, ByteBuffer buffer, int size)
      throws IOException {
    int frame = Integer.BYTES + size;
    int whole = buffer.position() / frame * frame;
    if (whole == 0) {
      return;
    }
    int end = buffer.position();
    buffer.flip().limit(whole);
    while (buffer.hasRemaining()) {
      socket.write(buffer);
    }
    buffer.limit(end);
    buffer.compact();
  }
}
