package io.rubinbft.orderer.operations;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.rubinbft.orderer.config.HostPort;
import io.rubinbft.orderer.config.OperationsSettings;
import io.rubinbft.orderer.config.TlsSettings;
import io.rubinbft.orderer.http.HttpListener;
import io.rubinbft.orderer.participation.BlockId;
import io.rubinbft.orderer.participation.ChannelInfo;
import io.rubinbft.orderer.participation.ChannelParticipation;
import io.rubinbft.orderer.participation.ParticipationException;
import io.rubinbft.orderer.participation.ParticipationHandler;
import io.rubinbft.orderer.testing.FabricFixtures;
import io.rubinbft.orderer.testing.TlsClients;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.Envelope;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A network stranger against the two HTTP ports: connections that send a byte and wait (slowloris)
 * must not stop {@code /healthz} nor the admin API, and with operations TLS on, {@code /metrics}
 * and {@code /logspec} answer 401 to a client without a certificate, as Fabric's do.
 */
class HttpStrangerTest {

  private static final Path TLS = FabricFixtures.orderer(1).resolve("tls");
  private static final Path ADMIN_TLS =
      FabricFixtures.ordererOrg().resolve("users/Admin@example.com/tls");

  private final List<AutoCloseable> opened = new ArrayList<>();

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable resource : opened.reversed()) {
      resource.close();
    }
  }

  @Test
  void connectionsThatSendOneByteAndWaitDoNotStopHealthz() throws Exception {
    OperationsServer operations = operations(TlsSettings.plaintext());
    HttpClient client = HttpClient.newHttpClient();
    opened.add(client);

    slowloris(operations.address(), 8);

    HttpResponse<String> response = get(client, "http", operations.address(), "/healthz");
    assertThat(response.statusCode()).isEqualTo(200);
  }

  /**
   * One address opens more connections than the port holds in total and trickles a byte on each
   * every 200 ms, so none ever idles out: it gets its share of connections, and a probe from
   * another address is still answered.
   */
  @Test
  void aStrangerTricklingOnEveryConnectionItCanOpenDoesNotStopHealthz() throws Exception {
    OperationsServer operations = operations(TlsSettings.plaintext());
    HttpClient client = HttpClient.newHttpClient();
    opened.add(client);
    List<Socket> trickling = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      Socket socket = new Socket();
      socket.bind(new InetSocketAddress("127.0.0.2", 0));
      socket.connect(operations.address(), 5_000);
      trickling.add(socket);
      opened.add(socket);
    }
    Thread trickle =
        Thread.ofPlatform()
            .start(
                () -> {
                  while (!Thread.currentThread().isInterrupted()) {
                    for (Socket socket : trickling) {
                      try {
                        socket.getOutputStream().write('G');
                      } catch (IOException e) {
                        // Closed by the server: its share is full.
                      }
                    }
                    try {
                      Thread.sleep(200);
                    } catch (InterruptedException e) {
                      return;
                    }
                  }
                });
    opened.add(trickle::interrupt);
    Thread.sleep(1_500);

    HttpResponse<String> response = get(client, "http", operations.address(), "/healthz");

    assertThat(response.statusCode()).isEqualTo(200);
  }

  @Test
  void connectionsThatSendOneByteAndWaitDoNotStopTheAdminApi() throws Exception {
    HttpListener admin = HttpListener.bind(new HostPort("127.0.0.1", 0), mutualTls(true), "admin");
    opened.add(admin);
    admin
        .server()
        .createContext(
            ParticipationHandler.CHANNELS_PATH,
            new ParticipationHandler(new NoChannels(), 1 << 20));
    admin.start();
    HttpClient client = adminClient();

    slowloris(admin.address(), 8);

    HttpResponse<String> response =
        get(client, "https", admin.address(), ParticipationHandler.CHANNELS_PATH);
    assertThat(response.statusCode()).isEqualTo(200);
  }

  @Test
  void withOperationsTlsMetricsAndLogspecNeedAClientCertificateAndHealthzDoesNot()
      throws Exception {
    OperationsServer operations = operations(mutualTls(false));
    HttpClient anonymous = TlsClients.https(TLS.resolve("ca.crt"), null, null);
    opened.add(anonymous);
    HttpClient admin = adminClient();

    assertThat(get(anonymous, "https", operations.address(), "/healthz").statusCode())
        .isEqualTo(200);
    assertThat(get(anonymous, "https", operations.address(), "/version").statusCode())
        .isEqualTo(200);
    assertThat(get(anonymous, "https", operations.address(), "/metrics").statusCode())
        .isEqualTo(401);
    assertThat(get(anonymous, "https", operations.address(), "/logspec").statusCode())
        .isEqualTo(401);
    assertThat(get(admin, "https", operations.address(), "/metrics").statusCode()).isEqualTo(200);
    assertThat(get(admin, "https", operations.address(), "/logspec").statusCode()).isEqualTo(200);
  }

  private OperationsServer operations(TlsSettings tls) throws IOException {
    HealthChecks health = new HealthChecks();
    health.register("ledger", Optional::empty);
    OperationsServer server =
        OperationsServer.start(
            new OperationsSettings(new HostPort("127.0.0.1", 0), tls, true),
            new PrometheusRegistry(),
            health,
            new LogLevels("info"),
            new VersionInfo("1.2.3", "abc"),
            Clock.systemUTC());
    opened.add(server);
    return server;
  }

  private static TlsSettings mutualTls(boolean clientAuthRequired) {
    return FabricFixtures.ordererTls(1, clientAuthRequired, List.of(TLS.resolve("ca.crt")));
  }

  private HttpClient adminClient() throws Exception {
    HttpClient client =
        TlsClients.https(
            TLS.resolve("ca.crt"),
            ADMIN_TLS.resolve("client.crt"),
            ADMIN_TLS.resolve("client.key"));
    opened.add(client);
    return client;
  }

  /** Opens {@code count} connections that each send one byte and then nothing. */
  private void slowloris(InetSocketAddress server, int count) throws IOException {
    for (int i = 0; i < count; i++) {
      Socket socket = new Socket();
      socket.connect(server, 5_000);
      socket.getOutputStream().write('G');
      socket.getOutputStream().flush();
      opened.add(socket);
    }
  }

  /** A GET that must be answered within 10 s (the stranger's connections stay open longer). */
  private static HttpResponse<String> get(
      HttpClient client, String scheme, InetSocketAddress server, String path) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(scheme + "://localhost:" + server.getPort() + path))
            .timeout(Duration.ofSeconds(10))
            .GET()
            .build();
    return client.send(request, HttpResponse.BodyHandlers.ofString());
  }

  /** A node that serves no channel: the admin API lists none and changes nothing. */
  private static final class NoChannels implements ChannelParticipation {

    @Override
    public List<String> channelNames() {
      return List.of();
    }

    @Override
    public Optional<ChannelInfo> info(String channel) {
      return Optional.empty();
    }

    @Override
    public ChannelInfo join(Block configBlock, byte[] configBlockBytes)
        throws ParticipationException {
      throw new ParticipationException(ParticipationException.Reason.NOT_FOUND, "not here");
    }

    @Override
    public ChannelInfo update(String channel, Envelope update) throws ParticipationException {
      throw new ParticipationException(ParticipationException.Reason.NOT_FOUND, "not here");
    }

    @Override
    public ByteString block(String channel, BlockId block) throws ParticipationException {
      throw new ParticipationException(ParticipationException.Reason.NOT_FOUND, "not here");
    }

    @Override
    public void remove(String channel) throws ParticipationException {
      throw new ParticipationException(ParticipationException.Reason.NOT_FOUND, "not here");
    }
  }
}
