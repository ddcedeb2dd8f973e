package io.rubinbft.orderer.grpc;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import io.rubinbft.orderer.config.ConnectionLimits;
import io.rubinbft.orderer.config.HostPort;
import io.rubinbft.orderer.config.TlsSettings;
import io.rubinbft.orderer.testing.Keepalives;
import io.rubinbft.orderer.testing.StrangerSockets;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Strangers from 127.0.0.2-4 against the gRPC listener's connection caps (small ones, so the test
 * is quick): connections over a cap are closed at once, long before the handshake deadline, the
 * oldest handshaking ones first, each counted by reason, and a client from 127.0.0.1 still gets its
 * call answered.
 */
class GrpcConnectionCapsTest {

  private static final ConnectionLimits LIMITS = new ConnectionLimits(12, 8, 6, 4);

  /** HTTP/2's client preface and an empty SETTINGS frame: a finished plaintext handshake. */
  private static final byte[] PREFACE_AND_SETTINGS = prefaceAndSettings();

  private final List<Socket> strangers = new ArrayList<>();
  private GrpcListener listener;
  private ManagedChannel client;

  @BeforeEach
  void start() throws IOException {
    listener =
        GrpcListener.start(
            new ListenerSettings(
                new HostPort("127.0.0.1", 0),
                TlsSettings.plaintext(),
                List::of,
                1 << 20,
                Keepalives.FABRIC_DEFAULTS,
                LIMITS,
                () -> GrpcListener.MAX_ORDERABLE_MESSAGE_BYTES),
            List.of());
    listener.health().setStatus("", HealthCheckResponse.ServingStatus.SERVING);
    client =
        Grpc.newChannelBuilderForAddress(
                "127.0.0.1", listener.address().getPort(), InsecureChannelCredentials.create())
            .build();
  }

  @AfterEach
  void stop() throws Exception {
    for (Socket stranger : strangers) {
      stranger.close();
    }
    client.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    listener.close();
  }

  @Test
  void handshakingConnectionsOverTheCapOfTheirAddressCloseItsOldest() throws Exception {
    List<Socket> idle = new ArrayList<>();
    for (int i = 0; i < LIMITS.maxHandshakingPerAddress() + 3; i++) {
      idle.add(connectFrom("127.0.0.2")); // back to back: likely accepted in one turn
    }
    for (int i = 0; i < idle.size(); i++) {
      boolean oldest = i < 3;
      assertThat(StrangerSockets.closedByTheNode(idle.get(i), oldest ? 10_000 : 500))
          .as(
              "connection %d of %d closed (the %d oldest must be) %s",
              i, idle.size(), 3, listener.connectionRefusals())
          .isEqualTo(oldest);
    }
    assertThat(listener.connectionRefusals()).containsEntry("handshaking_per_address", 3L);
    assertServing();
  }

  @Test
  void handshakingConnectionsOverTheTotalCapCloseTheOldestOfAll() throws Exception {
    List<Socket> idle = new ArrayList<>();
    for (String source : List.of("127.0.0.2", "127.0.0.3", "127.0.0.4")) {
      for (int i = 0; i < 3; i++) {
        idle.add(connectFrom(source));
        Thread.sleep(20);
      }
    }
    int over = idle.size() - LIMITS.maxHandshaking();
    for (int i = 0; i < idle.size(); i++) {
      assertThat(StrangerSockets.closedByTheNode(idle.get(i), i < over ? 10_000 : 500))
          .as("connection %d closed", i)
          .isEqualTo(i < over);
    }
    assertThat(listener.connectionRefusals()).containsEntry("handshaking", (long) over);
    assertServing();
  }

  @Test
  void connectionsOverTheCapOfTheirAddressOrInTotalAreRefusedAndOthersGetThrough()
      throws Exception {
    List<Socket> handshaken = new ArrayList<>();
    for (int i = 0; i < LIMITS.maxPerAddress(); i++) {
      handshaken.add(handshakenFrom("127.0.0.2"));
    }
    Socket overItsAddress = connectFrom("127.0.0.2");
    assertThat(StrangerSockets.closedByTheNode(overItsAddress, 10_000)).isTrue();
    assertThat(listener.connectionRefusals()).containsEntry("per_address", 1L);

    for (int i = LIMITS.maxPerAddress(); i < LIMITS.max() - 1; i++) {
      handshaken.add(handshakenFrom("127.0.0.3"));
    }
    assertServing(); // the honest client's connection is the last one under the total cap
    Socket overTheTotal = connectFrom("127.0.0.4");
    assertThat(StrangerSockets.closedByTheNode(overTheTotal, 10_000)).isTrue();
    assertThat(listener.connectionRefusals()).containsEntry("total", 1L);
    for (Socket open : handshaken) {
      assertThat(StrangerSockets.closedByTheNode(open, 50))
          .as("a connection under the caps stays")
          .isFalse();
    }
  }

  private void assertServing() {
    HealthCheckResponse answer =
        HealthGrpc.newBlockingStub(client)
            .withDeadlineAfter(10, TimeUnit.SECONDS)
            .check(HealthCheckRequest.getDefaultInstance());
    assertThat(answer.getStatus()).isEqualTo(HealthCheckResponse.ServingStatus.SERVING);
  }

  private Socket connectFrom(String source) throws IOException {
    Socket socket = new Socket();
    strangers.add(socket);
    socket.bind(new InetSocketAddress(InetAddress.getByName(source), 0));
    socket.connect(listener.address(), 5_000);
    return socket;
  }

  /**
   * A connection that finished HTTP/2's handshake as the node counts it: the node acknowledged our
   * SETTINGS. Its own SETTINGS come first, sent as it accepts, before it read our preface; gRPC
   * calls the transport ready while it reads our SETTINGS, before the acknowledgement is flushed.
   * Waiting only for the node's SETTINGS raced: a connection still counted as handshaking was
   * evicted by the next one over the handshaking cap, and made room under the cap on open ones.
   */
  private Socket handshakenFrom(String source) throws IOException {
    Socket socket = connectFrom(source);
    socket.getOutputStream().write(PREFACE_AND_SETTINGS);
    socket.setSoTimeout(5_000);
    InputStream in = socket.getInputStream();
    byte[] frameHeader = in.readNBytes(9);
    assertThat(frameHeader).hasSize(9);
    assertThat(frameHeader[3]).as("the node's first frame is its SETTINGS").isEqualTo((byte) 4);
    while (!isSettingsAck(frameHeader)) {
      int length =
          ((frameHeader[0] & 0xff) << 16)
              | ((frameHeader[1] & 0xff) << 8)
              | (frameHeader[2] & 0xff);
      in.skipNBytes(length);
      frameHeader = in.readNBytes(9);
      assertThat(frameHeader).as("the node acknowledges our SETTINGS").hasSize(9);
    }
    return socket;
  }

  private static boolean isSettingsAck(byte[] frameHeader) {
    return frameHeader[3] == 4 && (frameHeader[4] & 1) != 0;
  }

  private static byte[] prefaceAndSettings() {
    byte[] preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(US_ASCII);
    byte[] settings = {0, 0, 0, 4, 0, 0, 0, 0, 0};
    byte[] both = new byte[preface.length + settings.length];
    System.arraycopy(preface, 0, both, 0, preface.length);
    System.arraycopy(settings, 0, both, preface.length, settings.length);
    return both;
  }
}
