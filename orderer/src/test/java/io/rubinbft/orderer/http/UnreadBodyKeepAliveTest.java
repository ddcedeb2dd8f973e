package io.rubinbft.orderer.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import io.rubinbft.orderer.config.HostPort;
import io.rubinbft.orderer.config.TlsSettings;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Requests answered before their body is read (a 401, 404 or 405 from a handler that never looks at
 * the body), on a kept-alive HTTP/1.1 connection: the next request on the same connection is either
 * answered as if the body had been read, or the answer says {@code Connection: close} and the
 * connection ends cleanly after it; never a second request parsed out of the first one's body, a
 * reset before the answer could be read, or a thread held waiting for a body that never comes.
 */
class UnreadBodyKeepAliveTest {

  private static final String REFUSING_PATH = "/refuses";
  private static final String ANSWERING_PATH = "/answers";

  private HttpListener listener;
  private final List<Socket> sockets = new ArrayList<>();

  @BeforeEach
  void start() throws IOException {
    listener = HttpListener.bind(new HostPort("127.0.0.1", 0), TlsSettings.plaintext(), "unread");
    listener.server().createContext(REFUSING_PATH, exchange -> answer(exchange, 405, "refused"));
    listener
        .server()
        .createContext(
            ANSWERING_PATH,
            exchange -> {
              exchange.getRequestBody().readAllBytes();
              answer(exchange, 200, "answered");
            });
    listener.start();
  }

  @AfterEach
  void stop() throws IOException {
    for (Socket socket : sockets) {
      socket.close();
    }
    listener.close();
  }

  @Test
  void aSmallUnreadBodyDoesNotBecomeTheNextRequest() throws IOException {
    // The body is a complete request of its own: read as the next request, it would be answered.
    byte[] smuggled = request("GET", REFUSING_PATH + "?smuggled", new byte[0]);
    Socket socket = connect();
    OutputStream out = socket.getOutputStream();
    out.write(request("POST", REFUSING_PATH, smuggled));
    out.write(request("GET", ANSWERING_PATH, new byte[0]));
    out.flush();

    Response first = Response.read(socket.getInputStream());
    assertThat(first.status()).isEqualTo(405);
    if (first.closes()) {
      assertThat(socket.getInputStream().read()).as("after Connection: close").isEqualTo(-1);
      return;
    }
    Response second = Response.read(socket.getInputStream());
    assertThat(second.status()).as("the request after the unread body").isEqualTo(200);
    assertThat(second.body()).isEqualTo("answered");
  }

  @Test
  void aChunkedUnreadBodyDoesNotBecomeTheNextRequest() throws IOException {
    byte[] smuggled = request("GET", REFUSING_PATH + "?smuggled", new byte[0]);
    Socket socket = connect();
    OutputStream out = socket.getOutputStream();
    out.write(
        ("POST "
                + REFUSING_PATH
                + " HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                + Integer.toHexString(smuggled.length)
                + "\r\n")
            .getBytes(StandardCharsets.US_ASCII));
    out.write(smuggled);
    out.write("\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    out.write(request("GET", ANSWERING_PATH, new byte[0]));
    out.flush();

    Response first = Response.read(socket.getInputStream());
    assertThat(first.status()).isEqualTo(405);
    if (first.closes()) {
      assertThat(socket.getInputStream().read()).as("after Connection: close").isEqualTo(-1);
      return;
    }
    Response second = Response.read(socket.getInputStream());
    assertThat(second.status()).as("the request after the unread body").isEqualTo(200);
  }

  /**
   * A body far larger than the server would read in passing, written while the answer comes: the
   * client reads the whole answer, and then either gets the next one or a clean end.
   */
  @Test
  void aLargeUnreadBodyEndsTheConnectionCleanlyAfterTheAnswer() throws Exception {
    Socket socket = connect();
    OutputStream out = socket.getOutputStream();
    byte[] body = new byte[8 * 1024 * 1024];
    Thread writer =
        Thread.ofPlatform()
            .start(
                () -> {
                  try {
                    out.write(request("POST", REFUSING_PATH, body));
                    out.write(request("GET", ANSWERING_PATH, new byte[0]));
                    out.flush();
                  } catch (IOException e) {
                    // The server may stop reading the body and close: the answer says so.
                  }
                });

    Response first = Response.read(socket.getInputStream());
    assertThat(first.status()).isEqualTo(405);
    if (first.closes()) {
      writer.join(10_000);
      assertThat(readToEnd(socket.getInputStream())).as("after Connection: close").isEmpty();
    } else {
      Response second = Response.read(socket.getInputStream());
      assertThat(second.status()).isEqualTo(200);
    }
    assertThat(answeredOnANewConnection()).isEqualTo(200);
  }

  /**
   * More connections than the listener has threads, each declaring a body it never sends, each
   * answered at once: none may hold a thread waiting for its body.
   */
  @Test
  void bodiesThatNeverComeHoldNoThread() throws IOException {
    for (int i = 0; i < 2 * HttpListener.MAX_THREADS; i++) {
      Socket socket = connect();
      socket
          .getOutputStream()
          .write(
              ("POST "
                      + REFUSING_PATH
                      + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000000\r\n\r\n")
                  .getBytes(StandardCharsets.US_ASCII));
      assertThat(Response.read(socket.getInputStream()).status()).isEqualTo(405);
    }
    assertThat(answeredOnANewConnection()).isEqualTo(200);
  }

  private int answeredOnANewConnection() throws IOException {
    Socket socket = connect();
    socket.getOutputStream().write(request("GET", ANSWERING_PATH, new byte[0]));
    return Response.read(socket.getInputStream()).status();
  }

  private Socket connect() throws IOException {
    Socket socket = new Socket(InetAddress.getLoopbackAddress(), listener.address().getPort());
    socket.setSoTimeout(10_000);
    sockets.add(socket);
    return socket;
  }

  private static void answer(HttpExchange exchange, int status, String text) throws IOException {
    byte[] body = text.getBytes(StandardCharsets.US_ASCII);
    exchange.sendResponseHeaders(status, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  private static byte[] request(String method, String target, byte[] body) {
    ByteArrayOutputStream request = new ByteArrayOutputStream();
    request.writeBytes(
        (method
                + " "
                + target
                + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: "
                + body.length
                + "\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
    request.writeBytes(body);
    return request.toByteArray();
  }

  /** What is left on the connection; a reset counts as a failure (the answer could be lost). */
  private static byte[] readToEnd(InputStream in) throws IOException {
    try {
      return in.readAllBytes();
    } catch (SocketException e) {
      throw new AssertionError("the connection was reset instead of closed", e);
    }
  }

  /** One HTTP/1.1 response with a Content-Length body, read byte by byte (no read-ahead). */
  private record Response(int status, boolean closes, String body) {

    static Response read(InputStream in) throws IOException {
      String statusLine = line(in);
      if (!statusLine.startsWith("HTTP/1.1 ")) {
        throw new AssertionError("not a response: " + statusLine);
      }
      int status = Integer.parseInt(statusLine.substring(9, 12));
      int length = 0;
      boolean closes = false;
      for (String header = line(in); !header.isEmpty(); header = line(in)) {
        String lower = header.toLowerCase(Locale.ROOT);
        if (lower.startsWith("content-length:")) {
          length = Integer.parseInt(lower.substring(15).trim());
        } else if (lower.startsWith("connection:") && lower.contains("close")) {
          closes = true;
        }
      }
      byte[] body = in.readNBytes(length);
      return new Response(status, closes, new String(body, StandardCharsets.US_ASCII));
    }

    private static String line(InputStream in) throws IOException {
      StringBuilder line = new StringBuilder();
      for (int c = in.read(); c != '\n'; c = in.read()) {
        if (c < 0) {
          throw new AssertionError("the connection ended inside a response: " + line);
        }
        if (c != '\r') {
          line.append((char) c);
        }
      }
      return line.toString();
    }
  }
}
