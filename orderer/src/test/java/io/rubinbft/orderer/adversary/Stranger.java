package io.rubinbft.orderer.adversary;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A network stranger without any key: plain TCP connections to a node's ports from 127.0.0.2-5 (as
 * from other hosts) that stay idle, stop half-way through a handshake, trickle bytes (slowloris) or
 * send garbage. Closing it hangs up every connection.
 */
final class Stranger implements AutoCloseable {

  /** The start of a TLS record announcing a ClientHello of 512 bytes, never followed. */
  static final byte[] TLS_HELLO_NEVER_FINISHED = {0x16, 0x03, 0x01, 0x02, 0x00};

  /** A cluster frame header announcing a HELLO of 4,000 bytes, never followed. */
  static final byte[] CLUSTER_HELLO_NEVER_FINISHED = {
    0, 0, 0x0f, (byte) 0xa0, 0, 0, 0, 1, 0, 0, 0, 0
  };

  private final List<Socket> sockets = new ArrayList<>();
  private final Random random = new Random(22);
  private int opened;

  /** Opens {@code count} connections to {@code port} that send {@code first} and then nothing. */
  Stranger connect(int port, int count, byte[] first) throws IOException {
    for (int i = 0; i < count; i++) {
      Socket socket = open(port);
      if (first.length > 0) {
        socket.getOutputStream().write(first);
        socket.getOutputStream().flush();
      }
    }
    return this;
  }

  /** Opens {@code count} connections to {@code port} that each send {@code bytes} random bytes. */
  Stranger garbage(int port, int count, int bytes) throws IOException {
    for (int i = 0; i < count; i++) {
      byte[] noise = new byte[bytes];
      random.nextBytes(noise);
      Socket socket = open(port);
      try {
        socket.getOutputStream().write(noise);
        socket.getOutputStream().flush();
      } catch (IOException e) {
        // closed by the node already: what it should do
      }
    }
    return this;
  }

  /** Sends one more byte on every open connection (slowloris keeps each just alive). */
  void trickle() {
    for (Socket socket : sockets) {
      try {
        OutputStream out = socket.getOutputStream();
        out.write('X');
        out.flush();
      } catch (IOException e) {
        // closed by the node: what it should do
      }
    }
  }

  private Socket open(int port) throws IOException {
    Socket socket = new Socket();
    socket.bind(new InetSocketAddress("127.0.0." + (2 + opened++ % 4), 0));
    socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
    sockets.add(socket);
    return socket;
  }

  @Override
  public void close() {
    for (Socket socket : sockets) {
      try {
        socket.close();
      } catch (IOException e) {
        // already closed
      }
    }
  }
}
