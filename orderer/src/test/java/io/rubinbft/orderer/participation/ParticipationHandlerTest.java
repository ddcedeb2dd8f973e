package io.rubinbft.orderer.participation;

import static io.rubinbft.orderer.testing.OsnadminForms.CONTENT_TYPE;
import static io.rubinbft.orderer.testing.OsnadminForms.form;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.rubinbft.orderer.config.HostPort;
import io.rubinbft.orderer.config.TlsSettings;
import io.rubinbft.orderer.http.HttpListener;
import io.rubinbft.orderer.testing.FabricFixtures;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hyperledger.fabric.protos.common.Envelope;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The HTTP contract of the participation API, checked byte for byte against Fabric v3.1.5's
 * recorded answers (testdata/fabric/participation/). The node side is a small in-memory table of
 * channels: this test is about paths, status codes, headers and JSON, not about joining.
 */
class ParticipationHandlerTest {

  private static final Path RECORDED = FabricFixtures.root().resolve("participation");

  private final ChannelTable channels = new ChannelTable();
  private final HttpClient client = HttpClient.newHttpClient();
  private HttpListener listener;

  @BeforeEach
  void start() throws IOException {
    listener =
        HttpListener.bind(
            new HostPort("127.0.0.1", 0), TlsSettings.plaintext(), "participation-test");
    listener
        .server()
        .createContext(
            ParticipationHandler.CHANNELS_PATH, new ParticipationHandler(channels, 1 << 20));
    listener.start();
  }

  @AfterEach
  void stop() {
    listener.close();
    client.close();
  }

  @Test
  void joinListInfoRemoveAnswerAsFabricDoes() throws Exception {
    HttpResponse<String> join = join(genesisBlock());
    assertThat(join.statusCode()).isEqualTo(201);
    assertThat(join.body()).isEqualTo(recorded("join.json"));
    assertThat(join.headers().firstValue("Location"))
        .contains("/participation/v1/channels/fixture");
    assertThat(join.headers().firstValue("X-Request-Id")).get().asString().hasSize(36);

    HttpResponse<String> list = get("");
    assertThat(list.statusCode()).isEqualTo(200);
    assertThat(list.body()).isEqualTo(recorded("list.json"));
    assertThat(list.headers().firstValue("Cache-Control")).contains("no-store");

    HttpResponse<String> info = get("/fixture");
    assertThat(info.statusCode()).isEqualTo(200);
    assertThat(info.body()).isEqualTo(recorded("info.json"));

    HttpResponse<String> again = join(genesisBlock());
    assertThat(again.statusCode()).isEqualTo(405);
    assertThat(again.body()).isEqualTo(recorded("join-already-joined.json"));
    assertThat(again.headers().firstValue("Allow")).contains("GET, DELETE");

    HttpResponse<String> remove = delete("/fixture");
    assertThat(remove.statusCode()).isEqualTo(204);
    assertThat(remove.body()).isEmpty();
    assertThat(remove.headers().firstValue("Content-Type")).isEmpty();

    assertThat(get("").body()).isEqualTo(recorded("list-after-remove.json"));
    HttpResponse<String> removeAgain = delete("/fixture");
    assertThat(removeAgain.statusCode()).isEqualTo(404);
    assertThat(removeAgain.body()).isEqualTo(recorded("remove-unknown-channel.json"));
  }

  @Test
  void unknownChannelIs404() throws Exception {
    HttpResponse<String> info = get("/nosuch");
    assertThat(info.statusCode()).isEqualTo(404);
    assertThat(info.body()).isEqualTo(recorded("info-unknown-channel.json"));
  }

  @Test
  void malformedJoinRequestsAre400AndChangeNothing() throws Exception {
    assertThat(joinWith(CONTENT_TYPE, form("other", new byte[1])))
        .satisfies(r -> assertError(r, 400, "form does not contains part key: config-block"));
    assertThat(join(new byte[] {(byte) 0xff, 0x01}))
        .satisfies(
            r ->
                assertThat(r.body())
                    .startsWith(
                        "{\"error\":\"cannot unmarshal file part config-block into a block:"));
    assertThat(joinWith("application/json", "{}".getBytes(StandardCharsets.UTF_8)))
        .satisfies(
            r ->
                assertError(
                    r,
                    400,
                    "request Content-Type is 'application/json' but must be multipart/form-data"));
    assertThat(joinWith(CONTENT_TYPE, new byte[2 << 20]))
        .satisfies(
            r ->
                assertError(
                    r,
                    400,
                    "cannot read form from request body: request body exceeds 1048576 bytes"));
    assertThat(channels.channelNames()).isEmpty();
  }

  @Test
  void wrongMethodsAndChannelIdsAreRefused() throws Exception {
    HttpResponse<String> put =
        client.send(
            request("/fixture").PUT(HttpRequest.BodyPublishers.noBody()).build(),
            HttpResponse.BodyHandlers.ofString());
    assertError(put, 405, "invalid request method: PUT");
    assertThat(put.headers().firstValue("Allow")).contains("GET, DELETE");

    assertError(
        get("/Bad_Name"),
        400,
        "invalid channel ID: 'Bad_Name' contains illegal characters, allowed are [a-z][a-z0-9.-]*");
  }

  /** osnadmin channel fetch: the stored bytes, as Fabric serves them (fixtures fact 22). */
  @Test
  void fetchServesBlockBytesAsFabricDoes() throws Exception {
    join(genesisBlock());
    for (int n = 1; n <= 9; n++) {
      channels.append("fixture", fixtureBlock(n));
    }

    HttpResponse<byte[]> first = getBytes("/fixture/blocks/1");
    assertThat(first.statusCode()).isEqualTo(200);
    assertThat(first.headers().firstValue("Content-Type")).contains("application/octet-stream");
    assertThat(first.headers().firstValue("Cache-Control")).contains("no-store");
    assertThat(first.body()).isEqualTo(fixtureBlock(1).toByteArray());
    assertThat(getBytes("/fixture/blocks/config").body()).isEqualTo(fixtureBlock(7).toByteArray());
    assertThat(getBytes("/fixture/blocks/newest").body()).isEqualTo(fixtureBlock(9).toByteArray());
    assertThat(getBytes("/fixture/blocks/oldest").body()).isEqualTo(genesisBlock());
  }

  @Test
  void fetchRefusesUnknownChannelsBlocksAndIdsAsFabricDoes() throws Exception {
    join(genesisBlock());

    assertError(get("/fixture/blocks/1"), 404, "no block 1");
    assertError(get("/nosuch/blocks/0"), 404, "channel does not exist");
    assertError(
        get("/fixture/blocks/latest"),
        400,
        "invalid block ID: 'latest' not equal <newest|oldest|config|(number)>");
    HttpResponse<String> post =
        client.send(
            request("/fixture/blocks/0").POST(HttpRequest.BodyPublishers.noBody()).build(),
            HttpResponse.BodyHandlers.ofString());
    assertError(post, 405, "invalid request method: POST");
  }

  /** osnadmin channel update: the fixture's update, multipart part config-update-envelope. */
  @Test
  void updateTakesTheConfigUpdateEnvelopeAsFabricDoes() throws Exception {
    join(genesisBlock());
    byte[] update =
        Files.readAllBytes(
            FabricFixtures.root().resolve("config-update/anchorpeer-update.envelope"));

    HttpResponse<String> answer = put(form("config-update-envelope", update));
    assertThat(answer.statusCode()).isEqualTo(201);
    assertThat(answer.headers().firstValue("Location"))
        .contains("/participation/v1/channels/fixture");
    assertThat(channels.updates).containsExactly(Envelope.parseFrom(update));

    assertError(
        put(form("config-block", update)),
        400,
        "form does not contains part key: config-update-envelope");
    assertError(
        put(
            form(
                "config-update-envelope",
                Files.readAllBytes(FabricFixtures.root().resolve("envelopes/tx-valid.envelope")))),
        400,
        "invalid config update envelope: bad type");
    channels.remove("fixture");
    assertError(
        put(form("config-update-envelope", update)), 405, "cannot update: channel does not exist");
  }

  private HttpResponse<String> put(byte[] body) throws IOException, InterruptedException {
    return client.send(
        request("")
            .header("Content-Type", CONTENT_TYPE)
            .PUT(HttpRequest.BodyPublishers.ofByteArray(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<byte[]> getBytes(String path) throws IOException, InterruptedException {
    return client.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  private static ByteString fixtureBlock(int number) throws IOException {
    return ByteString.copyFrom(
        Files.readAllBytes(
            FabricFixtures.root().resolve(String.format("blocks/bft-%03d.block", number))));
  }

  private static void assertError(HttpResponse<String> response, int status, String message) {
    assertThat(response.statusCode()).isEqualTo(status);
    assertThat(response.body()).isEqualTo("{\"error\":\"" + message + "\"}\n");
  }

  private static String recorded(String file) throws IOException {
    return Files.readString(RECORDED.resolve(file));
  }

  private static byte[] genesisBlock() throws IOException {
    return Files.readAllBytes(FabricFixtures.root().resolve("bft-genesis.block"));
  }

  private HttpResponse<String> join(byte[] block) throws IOException, InterruptedException {
    return joinWith(CONTENT_TYPE, form("config-block", block));
  }

  private HttpResponse<String> joinWith(String contentType, byte[] body)
      throws IOException, InterruptedException {
    return client.send(
        request("")
            .header("Content-Type", contentType)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return client.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> delete(String path) throws IOException, InterruptedException {
    return client.send(request(path).DELETE().build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(
        URI.create(
            "http://127.0.0.1:"
                + listener.address().getPort()
                + ParticipationHandler.CHANNELS_PATH
                + path));
  }
}
