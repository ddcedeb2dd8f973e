package io.rubinbft.orderer.testing;

import static java.nio.charset.StandardCharsets.US_ASCII;

import io.rubinbft.orderer.crypto.Pem;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.jspecify.annotations.Nullable;

/**
 * A client that speaks HTTP/2 by hand, in plaintext or over TLS, so that it can do what grpc-java's
 * client never does: announce a gRPC message of some length on one Broadcast stream and send only
 * part of its body, then wait. It stays within the windows the server granted (its SETTINGS and
 * WINDOW_UPDATEs), answers the server's SETTINGS and PINGs, and notes when the server ends the
 * stream (trailers or RST_STREAM) or the connection (GOAWAY, close).
 */
// close() waits for its reader to end; a test interrupted there should fail on the
// InterruptedException, so close() declares it rather than swallowing it (javac's "try" lint).
@SuppressWarnings("try")
public final class SlowGrpcStream implements AutoCloseable {

  private static final int STREAM = 1;
  private static final int DEFAULT_WINDOW = 65_535;
  private static final int FRAME_BYTES = 16_384;

  private final Socket socket;
  private final OutputStream out;
  private final CountDownLatch ended = new CountDownLatch(1);
  private final CountDownLatch answered = new CountDownLatch(1);
  private final Thread reader;
  // The message's body, or null for zeros.
  private final byte @Nullable [] body;
  private long connectionWindow = DEFAULT_WINDOW;
  private long streamWindow = DEFAULT_WINDOW;
  private int bodyLeft;
  private boolean headerSent;

  /** Opens a plaintext Broadcast stream announcing a message of {@code messageBytes}. */
  public SlowGrpcStream(InetSocketAddress server, int messageBytes) throws IOException {
    this(connect(server), "http", messageBytes, null);
  }

  /**
   * Opens a plaintext Broadcast stream announcing {@code message} (a serialized envelope, say),
   * which {@link #send} sends.
   */
  public SlowGrpcStream(InetSocketAddress server, byte[] message) throws IOException {
    this(connect(server), "http", message.length, message);
  }

  /**
   * Opens a Broadcast stream over TLS (ALPN h2, trusting the CA in PEM file {@code ca}) announcing
   * a message of {@code messageBytes}.
   */
  public static SlowGrpcStream overTls(InetSocketAddress server, Path ca, int messageBytes)
      throws IOException {
    Socket plain = connect(server);
    try {
      KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
      trusted.load(null, null);
      trusted.setCertificateEntry("ca", Pem.certificates(ca).getFirst());
      TrustManagerFactory trust =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(trusted);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, trust.getTrustManagers(), null);
      SSLSocket tls =
          (SSLSocket)
              context
                  .getSocketFactory()
                  .createSocket(plain, server.getHostString(), server.getPort(), true);
      SSLParameters parameters = tls.getSSLParameters();
      parameters.setApplicationProtocols(new String[] {"h2"});
      tls.setSSLParameters(parameters);
      tls.startHandshake();
      return new SlowGrpcStream(tls, "https", messageBytes, null);
    } catch (GeneralSecurityException e) {
      plain.close();
      throw new IOException(e);
    }
  }

  private static Socket connect(InetSocketAddress server) throws IOException {
    Socket socket = new Socket();
    socket.connect(server, 5_000);
    return socket;
  }

  private SlowGrpcStream(Socket socket, String scheme, int messageBytes, byte @Nullable [] body)
      throws IOException {
    this.socket = socket;
    this.body = body;
    out = socket.getOutputStream();
    bodyLeft = messageBytes;
    synchronized (this) {
      out.write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(US_ASCII));
      frame(0x4, 0, 0, new byte[0]); // SETTINGS, empty
      frame(0x1, 0x4, STREAM, headers(scheme)); // HEADERS, END_HEADERS
      out.flush();
    }
    reader = Thread.ofPlatform().daemon().name("slow-grpc-reader").start(this::read);
  }

  /**
   * Sends up to {@code bytes} more of the message (the gRPC prefix first), as far as the windows
   * allow within {@code millis}; returns how many body bytes went out.
   */
  public int send(int bytes, long millis) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    int sent = 0;
    while (sent < bytes && bodyLeft > 0 && ended.getCount() > 0) {
      synchronized (this) {
        int prefix = headerSent ? 0 : 5;
        long window = Math.min(connectionWindow, streamWindow) - prefix;
        int chunk =
            (int)
                Math.min(Math.min(FRAME_BYTES - prefix, bytes - sent), Math.min(bodyLeft, window));
        if (chunk > 0) {
          ByteBuffer data = ByteBuffer.allocate(prefix + chunk);
          if (!headerSent) {
            data.put((byte) 0).putInt(bodyLeft);
            headerSent = true;
          }
          if (body != null) {
            data.put(body, body.length - bodyLeft, chunk);
          }
          frame(0x0, 0, STREAM, data.array());
          out.flush();
          connectionWindow -= prefix + chunk;
          streamWindow -= prefix + chunk;
          bodyLeft -= chunk;
          sent += chunk;
          continue;
        }
        if (System.nanoTime() > deadline) {
          return sent;
        }
        wait(50);
      }
    }
    return sent;
  }

  /** Whether the server sent a message on the stream (an answer) within {@code millis}. */
  public boolean answeredWithin(long millis) throws InterruptedException {
    return answered.await(millis, TimeUnit.MILLISECONDS);
  }

  /** Whether the server ended the stream or the connection within {@code millis}. */
  public boolean endedWithin(long millis) throws InterruptedException {
    return ended.await(millis, TimeUnit.MILLISECONDS);
  }

  private void read() {
    try {
      DataInputStream in = new DataInputStream(socket.getInputStream());
      while (true) {
        int length = in.readUnsignedShort() << 8 | in.readUnsignedByte();
        int type = in.readUnsignedByte();
        int flags = in.readUnsignedByte();
        int stream = in.readInt() & 0x7fffffff;
        byte[] payload = in.readNBytes(length);
        switch (type) {
          case 0x0 -> { // DATA: an answer
            if (stream == STREAM && length > 0) {
              answered.countDown();
            }
          }
          case 0x1 -> { // HEADERS: the trailers end the stream
            if (stream == STREAM && (flags & 0x1) != 0) {
              ended.countDown();
            }
          }
          case 0x3, 0x7 -> ended.countDown(); // RST_STREAM, GOAWAY
          case 0x4 -> settings(flags, payload);
          case 0x6 -> { // PING: answer unless it is an answer
            if ((flags & 0x1) == 0) {
              synchronized (this) {
                frame(0x6, 0x1, 0, payload);
                out.flush();
              }
            }
          }
          case 0x8 -> windowUpdate(stream, ByteBuffer.wrap(payload).getInt() & 0x7fffffff);
          default -> {}
        }
      }
    } catch (IOException e) {
      ended.countDown(); // closed
    }
  }

  private synchronized void settings(int flags, byte[] payload) throws IOException {
    if ((flags & 0x1) != 0) {
      return; // our SETTINGS acknowledged
    }
    ByteBuffer settings = ByteBuffer.wrap(payload);
    while (settings.remaining() >= 6) {
      int id = settings.getShort() & 0xffff;
      long value = settings.getInt() & 0xffffffffL;
      if (id == 0x4) { // INITIAL_WINDOW_SIZE
        streamWindow += value - DEFAULT_WINDOW;
      }
    }
    frame(0x4, 0x1, 0, new byte[0]);
    out.flush();
    notifyAll();
  }

  private synchronized void windowUpdate(int stream, int increment) {
    if (stream == 0) {
      connectionWindow += increment;
    } else if (stream == STREAM) {
      streamWindow += increment;
    }
    notifyAll();
  }

  private void frame(int type, int flags, int stream, byte[] payload) throws IOException {
    ByteBuffer header = ByteBuffer.allocate(9);
    header.put((byte) (payload.length >>> 16)).putShort((short) payload.length);
    header.put((byte) type).put((byte) flags).putInt(stream);
    out.write(header.array());
    out.write(payload);
  }

  /** The request headers, HPACK literals without indexing (no Huffman). */
  private static byte[] headers(String scheme) {
    ByteArrayOutputStream block = new ByteArrayOutputStream();
    String[][] fields = {
      {":method", "POST"},
      {":scheme", scheme},
      {":path", "/orderer.AtomicBroadcast/Broadcast"},
      {":authority", "localhost"},
      {"content-type", "application/grpc"},
      {"te", "trailers"}
    };
    for (String[] field : fields) {
      block.write(0);
      block.write(field[0].length());
      block.writeBytes(field[0].getBytes(US_ASCII));
      block.write(field[1].length());
      block.writeBytes(field[1].getBytes(US_ASCII));
    }
    return block.toByteArray();
  }

  @Override
  public void close() throws IOException, InterruptedException {
    socket.close();
    reader.join(5_000);
  }
}
