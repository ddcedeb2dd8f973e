package io.rubinbft.orderer.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rubinbft.orderer.config.HostPort;
import io.rubinbft.orderer.config.TlsSettings;
import io.rubinbft.orderer.http.HttpListener;
import io.rubinbft.orderer.http.JsonResponses;
import io.rubinbft.orderer.testing.FabricFixtures;
import io.rubinbft.orderer.testing.TlsClients;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** An HTTPS listener with the fixture orderer's cryptogen TLS material and mutual TLS. */
class MutualTlsListenerTest {

  private HttpListener listener;

  @BeforeEach
  void start() throws IOException {
    Path tls = FabricFixtures.orderer(1).resolve("tls");
    TlsSettings settings = FabricFixtures.ordererTls(1, true, List.of(tls.resolve("ca.crt")));
    listener = HttpListener.bind(new HostPort("127.0.0.1", 0), settings, "test");
    listener.server().createContext("/", e -> JsonResponses.send(e, 200, Map.of("ok", true)));
    listener.start();
  }

  @AfterEach
  void stop() {
    listener.close();
  }

  @Test
  void anAdminWithAClientCertificateFromTheTlsCaIsServed() throws Exception {
    Path adminTls = FabricFixtures.ordererOrg().resolve("users/Admin@example.com/tls");
    try (HttpClient client =
        client(adminTls.resolve("client.crt"), adminTls.resolve("client.key"))) {
      HttpResponse<String> response = client.send(request(), HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(response.body()).isEqualTo("{\"ok\":true}\n");
    }
  }

  @Test
  void aClientWithoutACertificateIsRefusedInTheHandshake() throws Exception {
    try (HttpClient client = client(null, null)) {
      assertThatThrownBy(() -> client.send(request(), HttpResponse.BodyHandlers.ofString()))
          .isInstanceOf(IOException.class);
    }
  }

  @Test
  void unreadableKeyMaterialIsNamedInTheError() {
    Path tls = FabricFixtures.orderer(1).resolve("tls");
    TlsSettings swapped =
        new TlsSettings(
            true,
            tls.resolve("server.key"),
            tls.resolve("server.crt"),
            List.of(),
            false,
            List.of());
    assertThatThrownBy(() -> ServerTls.context(swapped))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(tls.resolve("server.key") + " holds no PEM certificate");
  }

  private HttpRequest request() {
    return HttpRequest.newBuilder(
            URI.create("https://localhost:" + listener.address().getPort() + "/"))
        .GET()
        .build();
  }

  private static HttpClient client(Path certificate, Path key)
      throws GeneralSecurityException, IOException {
    return TlsClients.https(FabricFixtures.orderer(1).resolve("tls/ca.crt"), certificate, key);
  }
}
