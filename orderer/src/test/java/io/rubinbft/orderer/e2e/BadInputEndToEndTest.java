package io.rubinbft.orderer.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.grpc.stub.StreamObserver;
import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.orderer.client.SeekInfos;
import io.rubinbft.orderer.config.HostPort;
import io.rubinbft.orderer.config.NodeConfigLoader;
import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.identity.SigningIdentity;
import io.rubinbft.orderer.msp.TestCa;
import io.rubinbft.orderer.node.OrdererNode;
import io.rubinbft.orderer.operations.LogLevels;
import io.rubinbft.orderer.service.RawCalls;
import io.rubinbft.orderer.testing.AdminApi;
import io.rubinbft.orderer.testing.DeliverCalls;
import io.rubinbft.orderer.testing.FabricFixtures;
import io.rubinbft.orderer.testing.FreePorts;
import io.rubinbft.orderer.testing.SignedEnvelopes;
import io.rubinbft.orderer.tools.bootstrap.LocalNetwork;
import io.rubinbft.orderer.tools.bootstrap.LocalNetworkSpec;
import io.rubinbft.orderer.tools.bootstrap.NetworkSummary;
import io.rubinbft.orderer.tools.bootstrap.PortPlan;
import io.rubinbft.orderer.tools.loadgen.DeliveryStats;
import io.rubinbft.orderer.tools.loadgen.LoadGenerator;
import io.rubinbft.orderer.tools.loadgen.LoadReport;
import io.rubinbft.orderer.tools.loadgen.LoadSpec;
import io.rubinbft.orderer.tools.loadgen.OrdererChannels;
import io.rubinbft.orderer.tools.local.LocalNodeConfigs;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.HeaderType;
import org.hyperledger.fabric.protos.common.Payload;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.AtomicBroadcastGrpc;
import org.hyperledger.fabric.protos.orderer.BroadcastResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The bad inputs of issue 6, end to end against one started 4-node cluster: each through real gRPC
 * with TLS or HTTPS with mutual TLS, each answered with the status Fabric answers (docs/FABRIC.md
 * and the fixtures' recorded answers), and none with an effect: after a refused Broadcast the next
 * block holds only a valid marker transaction sent after it; after a refused Deliver or admin call
 * no ledger grew and the channel list is the same.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BadInputEndToEndTest {

  private static final String CHANNEL = "mychannel";
  private static final String WRITERS_REFUSAL =
      "implicit policy evaluation failed - 0 sub-policies were satisfied, but this policy requires"
          + " 1 of the 'Writers' sub-policies to be satisfied: permission denied";

  @TempDir static Path dir;

  private final List<OrdererNode> nodes = new ArrayList<>();
  private NetworkSummary network;
  private OrdererChannels grpc;
  private AdminApi admin;
  private SigningIdentity user;
  private EnvelopeFactory client;

  /** One refused input: what it is, how to make it, and Fabric's answer. */
  record Refusal(String name, Supplier<Envelope> envelope, Status status, String info) {
    @Override
    public String toString() {
      return name;
    }
  }

  @BeforeAll
  void startCluster() throws Exception {
    PortPlan ports =
        new PortPlan(
            FreePorts.block(4), FreePorts.block(4), FreePorts.block(4), FreePorts.block(4));
    network = LocalNetwork.generate(dir, new LocalNetworkSpec(CHANNEL, 4, ports, 10));
    for (Path config : LocalNodeConfigs.write(network)) {
      nodes.add(OrdererNode.start(NodeConfigLoader.load(config, Map.of()), new LogLevels("info")));
    }
    admin = AdminApi.as(network.ordererAdmin());
    byte[] genesis = Files.readAllBytes(network.genesisBlock());
    for (OrdererNode node : nodes) {
      assertThat(admin.join(node.adminAddress().getPort(), genesis).statusCode()).isEqualTo(201);
    }
    grpc =
        OrdererChannels.connect(
            nodes.stream().map(n -> new HostPort("localhost", n.grpcAddress().getPort())).toList(),
            new OrdererChannels.ClientTls(
                Optional.of(network.nodes().getFirst().tlsCaCert()),
                Optional.empty(),
                Optional.empty()));
    user =
        SigningIdentity.fromMspDirectory(
            network.client().mspDir(), network.clientMspId(), CryptoProvider.preferNative());
    client = new EnvelopeFactory(user, Clock.systemUTC());
    orderMarker();
  }

  @AfterAll
  void stopCluster() {
    if (grpc != null) {
      grpc.close();
    }
    nodes.forEach(OrdererNode::close);
  }

  Stream<Refusal> refusedBroadcasts() {
    return Stream.of(
        new Refusal(
            "payload that is not protobuf",
            () -> Envelope.newBuilder().setPayload(ByteString.copyFrom(new byte[] {-1})).build(),
            Status.BAD_REQUEST,
            "could not determine channel ID: error unmarshalling Payload"),
        new Refusal(
            "empty envelope",
            Envelope::getDefaultInstance,
            Status.BAD_REQUEST,
            "could not determine channel ID: header not set"),
        new Refusal(
            "unknown channel",
            () -> client.transaction("nosuchchannel", data()).envelope(),
            Status.BAD_REQUEST,
            "channel does not exist"),
        new Refusal(
            "CONFIG_UPDATE whose data is no ConfigUpdateEnvelope",
            () -> signed(user, HeaderType.CONFIG_UPDATE, Instant.now()),
            Status.BAD_REQUEST,
            "error applying config update to existing channel 'mychannel': error converting"
                + " envelope to config update"),
        new Refusal(
            "CONFIG header type",
            () -> signed(user, HeaderType.CONFIG, Instant.now()),
            Status.BAD_REQUEST,
            "message is of type that cannot be processed directly"),
        new Refusal("bad signature", this::badlySigned, Status.FORBIDDEN, WRITERS_REFUSAL),
        new Refusal(
            "creator from an unknown CA",
            () -> signed(unknownCreator(), HeaderType.ENDORSER_TRANSACTION, Instant.now()),
            Status.FORBIDDEN,
            WRITERS_REFUSAL),
        new Refusal(
            "expired creator",
            () -> signed(expiredCreator(), HeaderType.ENDORSER_TRANSACTION, Instant.now()),
            Status.BAD_REQUEST,
            "broadcast client identity expired"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refusedBroadcasts")
  void broadcastRefusesAndOrdersNothing(Refusal refusal) throws Exception {
    long before = height(nodes.getFirst());
    Envelope envelope = refusal.envelope().get();

    BroadcastResponse response = broadcastOnce(envelope);

    assertThat(response.getStatus()).as(response.getInfo()).isEqualTo(refusal.status());
    assertThat(response.getInfo()).startsWith(refusal.info());
    expectOnlyTheMarkerOrderedSince(before);
  }

  /**
   * An envelope a little over AbsoluteMaxBytes (by its header, within the gRPC listener's margin)
   * gets Fabric's answer from the size check.
   */
  @Test
  void anEnvelopeOverAbsoluteMaxBytesIsRefusedAsFabricDoesAndOrdersNothing() throws Exception {
    long before = height(nodes.getFirst());
    Envelope oversized = client.transaction(CHANNEL, new byte[10_485_760]).envelope();

    BroadcastResponse response = broadcastOnce(oversized);

    // Fabric answers 400, not 413, to an oversized envelope (docs/FABRIC.md).
    assertThat(response.getStatus()).isEqualTo(Status.BAD_REQUEST);
    assertThat(response.getInfo())
        .isEqualTo(
            "message payload is "
                + (oversized.getPayload().size() + oversized.getSignature().size())
                + " bytes and exceeds maximum allowed 10485760 bytes");
    expectOnlyTheMarkerOrderedSince(before);
  }

  /**
   * A message far over the largest AbsoluteMaxBytes served (beyond the listener's margin) is
   * refused as its bytes arrive, before it is buffered whole (docs/THREAT-MODEL.md), with grpc-go's
   * text for a message over its limit.
   */
  @Test
  void aMessageFarOverAbsoluteMaxBytesIsRefusedAsItArrivesAndOrdersNothing() throws Exception {
    long before = height(nodes.getFirst());
    Envelope oversized = client.transaction(CHANNEL, new byte[11_000_000]).envelope();

    assertThatThrownBy(() -> broadcastOnce(oversized))
        .hasRootCauseInstanceOf(io.grpc.StatusRuntimeException.class)
        .rootCause()
        .hasMessageStartingWith("RESOURCE_EXHAUSTED: grpc: received message larger than max");
    expectOnlyTheMarkerOrderedSince(before);
  }

  @Test
  void anEnvelopeThatIsNotProtobufFailsTheCallAndOrdersNothing() throws Exception {
    long before = height(nodes.getFirst());

    io.grpc.Status status = RawCalls.broadcast(grpc.channels().getFirst(), new byte[] {-1, 1});

    // grpc-java's answer to a request it cannot parse; grpc-go (Fabric) answers INTERNAL.
    assertThat(status.getCode()).isEqualTo(io.grpc.Status.Code.UNKNOWN);
    expectOnlyTheMarkerOrderedSince(before);
  }

  Stream<Refusal> refusedSeeks() {
    return Stream.of(
        new Refusal(
            "unknown channel",
            () -> client.seek("nosuchchannel", SeekInfos.range(0, 0), ByteString.EMPTY),
            Status.NOT_FOUND,
            ""),
        new Refusal(
            "bad signature",
            () ->
                withFlippedSignature(client.seek(CHANNEL, SeekInfos.range(0, 0), ByteString.EMPTY)),
            Status.FORBIDDEN,
            ""),
        new Refusal(
            "reader from an unknown CA",
            () ->
                factory(unknownCreator(), Clock.systemUTC())
                    .seek(CHANNEL, SeekInfos.range(0, 0), ByteString.EMPTY),
            Status.FORBIDDEN,
            ""),
        new Refusal(
            "expired reader",
            () ->
                factory(expiredCreator(), Clock.systemUTC())
                    .seek(CHANNEL, SeekInfos.range(0, 0), ByteString.EMPTY),
            Status.FORBIDDEN,
            ""),
        new Refusal(
            "seek stamped an hour ago",
            () ->
                factory(user, Clock.offset(Clock.systemUTC(), Duration.ofHours(-1)))
                    .seek(CHANNEL, SeekInfos.range(0, 0), ByteString.EMPTY),
            Status.BAD_REQUEST,
            ""),
        new Refusal(
            "seek beyond the height with FAIL_IF_NOT_READY",
            () -> client.seek(CHANNEL, SeekInfos.range(1_000, 1_000), ByteString.EMPTY),
            Status.NOT_FOUND,
            ""));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refusedSeeks")
  void deliverRefusesAndChangesNothing(Refusal refusal) throws Exception {
    List<Long> before = settledHeights();

    DeliverCalls.Answer answer =
        DeliverCalls.request(
            grpc.channels().getFirst(), refusal.envelope().get(), Duration.ofSeconds(30));

    assertThat(answer).isEqualTo(new DeliverCalls.Answer(List.of(), refusal.status()));
    assertThat(heights()).isEqualTo(before);
  }

  @Test
  void aDeliverRequestThatIsNotProtobufFailsTheCall() throws Exception {
    List<Long> before = settledHeights();

    io.grpc.Status status = RawCalls.deliver(grpc.channels().getFirst(), new byte[] {-1, 1});

    assertThat(status.getCode()).isEqualTo(io.grpc.Status.Code.UNKNOWN);
    assertThat(heights()).isEqualTo(before);
  }

  @Test
  void malformedMultipartIsABadRequestAndJoinsNothing() throws Exception {
    String channels = admin.list(adminPort()).body();

    HttpResponse<String> response =
        admin.post(
            adminPort(),
            "multipart/form-data; boundary=rubin",
            "--rubin\r\nthis is not a form part".getBytes(StandardCharsets.US_ASCII));

    assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
    assertThat(response.body()).startsWith("{\"error\":");
    assertThat(admin.list(adminPort()).body()).isEqualTo(channels);
  }

  @Test
  void aClientCertificateFromOutsideTheAdminCaIsRefusedInTheHandshake() throws Exception {
    String channels = admin.list(adminPort()).body();
    // Fabric's admin endpoint authorizes by mutual TLS alone: a client whose certificate does not
    // chain to Admin.TLS.ClientRootCAs (here Org1's client) never reaches an HTTP handler.
    AdminApi stranger = AdminApi.as(network.client());
    byte[] genesis = Files.readAllBytes(network.genesisBlock());

    assertThatThrownBy(() -> stranger.join(adminPort(), genesis)).isInstanceOf(IOException.class);
    assertThatThrownBy(() -> stranger.list(adminPort())).isInstanceOf(IOException.class);
    assertThat(admin.list(adminPort()).body()).isEqualTo(channels);
  }

  @Test
  void joiningAChannelThatExistsIs405AndChangesNothing() throws Exception {
    List<Long> before = settledHeights();

    HttpResponse<String> response =
        admin.join(adminPort(), Files.readAllBytes(network.genesisBlock()));

    assertThat(response.statusCode()).isEqualTo(405);
    assertThat(response.body())
        .isEqualTo(
            Files.readString(
                FabricFixtures.root().resolve("participation/join-already-joined.json")));
    assertThat(heights()).isEqualTo(before);
  }

  @Test
  void aConfigBlockWhoseConsentersDoNotIncludeThisNodeIsABadRequest() throws Exception {
    String channels = admin.list(adminPort()).body();
    PortPlan ports =
        new PortPlan(
            FreePorts.block(4), FreePorts.block(4), FreePorts.block(4), FreePorts.block(4));
    NetworkSummary other =
        LocalNetwork.generate(
            dir.resolve("other"), new LocalNetworkSpec("otherchannel", 4, ports, 10));

    HttpResponse<String> response =
        admin.join(adminPort(), Files.readAllBytes(other.genesisBlock()));

    assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
    assertThat(response.body()).startsWith("{\"error\":\"cannot join: ");
    assertThat(admin.list(adminPort()).body()).isEqualTo(channels);
    assertThat(admin.info(adminPort(), "otherchannel").statusCode()).isEqualTo(404);
  }

  /** Broadcast on a stream of its own; Fabric ends the stream after a refusal. */
  private BroadcastResponse broadcastOnce(Envelope envelope) throws Exception {
    CompletableFuture<BroadcastResponse> first = new CompletableFuture<>();
    CompletableFuture<Void> ended = new CompletableFuture<>();
    StreamObserver<Envelope> requests =
        AtomicBroadcastGrpc.newStub(grpc.channels().getFirst())
            .broadcast(
                new StreamObserver<>() {
                  @Override
                  public void onNext(BroadcastResponse response) {
                    first.complete(response);
                  }

                  @Override
                  public void onError(Throwable t) {
                    first.completeExceptionally(t);
                    ended.completeExceptionally(t);
                  }

                  @Override
                  public void onCompleted() {
                    ended.complete(null);
                  }
                });
    requests.onNext(envelope);
    BroadcastResponse response = first.get(1, TimeUnit.MINUTES);
    ended.get(1, TimeUnit.MINUTES);
    return response;
  }

  /**
   * Orders one valid transaction through every node and checks that it is the only transaction
   * every ledger got since {@code height}: whatever was refused before it was not ordered.
   */
  private void expectOnlyTheMarkerOrderedSince(long height) throws Exception {
    String marker = orderMarker();
    for (OrdererNode node : nodes) {
      ChannelLedger ledger = ledger(node);
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
      while (!txIdsSince(ledger, height).contains(marker) && System.nanoTime() < deadline) {
        ledger.awaitHeight(ledger.height() + 1, Duration.ofMillis(200));
      }
      assertThat(txIdsSince(ledger, height)).containsExactly(marker);
    }
  }

  private String orderMarker() throws InterruptedException {
    LoadSpec spec =
        new LoadSpec(CHANNEL, 1, 100, 1, 3, OptionalDouble.empty(), Duration.ofMinutes(1));
    LoadReport report =
        new LoadGenerator(
                spec, client, grpc.channels(), ByteString.EMPTY, block -> Optional.empty())
            .run();
    // Ordered is delivered: a quorum of SUCCESS answers may miss the marker when it is ordered
    // before two orderers read their copies, which they then refuse as "request already
    // processed", as Fabric's orderers do.
    DeliveryStats delivery = report.delivery();
    assertThat(delivery.deliveredTxIds()).as(report.format()).hasSize(1);
    assertThat(delivery.problem()).as(report.format()).isEmpty();
    assertThat(delivery.duplicates()).as(report.format()).isZero();
    assertThat(report.lost()).as(report.format()).isZero();
    return delivery.deliveredTxIds().iterator().next();
  }

  private static List<String> txIdsSince(ChannelLedger ledger, long height)
      throws InvalidProtocolBufferException {
    List<String> ids = new ArrayList<>();
    for (long n = height; n < ledger.height(); n++) {
      Block block = ledger.block(n).orElseThrow().block();
      for (ByteString data : block.getData().getDataList()) {
        Payload payload = Payload.parseFrom(Envelope.parseFrom(data).getPayload());
        ids.add(ChannelHeader.parseFrom(payload.getHeader().getChannelHeader()).getTxId());
      }
    }
    return ids;
  }

  private List<Long> heights() {
    return nodes.stream().map(BadInputEndToEndTest::height).toList();
  }

  /**
   * The heights once every node reached the highest: a node may still be catching up on what an
   * earlier test ordered, and its growth must not count as the effect of the bad input.
   */
  private List<Long> settledHeights() throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    List<Long> heights = heights();
    long highest = heights.stream().mapToLong(Long::longValue).max().orElseThrow();
    for (OrdererNode node : nodes) {
      ChannelLedger ledger = ledger(node);
      while (ledger.height() < highest && System.nanoTime() < deadline) {
        ledger.awaitHeight(highest, Duration.ofMillis(200));
      }
    }
    return heights();
  }

  private static long height(OrdererNode node) {
    return ledger(node).height();
  }

  private static ChannelLedger ledger(OrdererNode node) {
    return node.channels().runtime(CHANNEL).orElseThrow().ledger();
  }

  private int adminPort() {
    return nodes.getFirst().adminAddress().getPort();
  }

  private Envelope badlySigned() {
    return withFlippedSignature(client.transaction(CHANNEL, data()).envelope());
  }

  private static Envelope withFlippedSignature(Envelope envelope) {
    byte[] signature = envelope.getSignature().toByteArray();
    signature[signature.length / 2] ^= 0x01;
    return envelope.toBuilder().setSignature(ByteString.copyFrom(signature)).build();
  }

  private static Envelope signed(SigningIdentity by, HeaderType type, Instant at) {
    return SignedEnvelopes.signed(by, type, CHANNEL, ByteString.copyFrom(data()), at);
  }

  private SigningIdentity unknownCreator() {
    return TestCa.generate("Unknown CA")
        .issue("Stranger", List.of("client"))
        .signingIdentity(network.clientMspId(), CryptoProvider.jdk());
  }

  /** A client certificate from Org1's own CA whose validity ended long ago. */
  private SigningIdentity expiredCreator() {
    Path ca = network.cryptoDir().resolve("peerOrganizations/org1.example.com/ca");
    TestCa org1 =
        TestCa.fromFiles(ca.resolve("ca.org1.example.com-cert.pem"), ca.resolve("priv_sk"));
    Instant caStart = org1.certificate().getNotBefore().toInstant();
    return org1.issue(
            "Org1 client", List.of("client"), caStart.plusSeconds(1), caStart.plusSeconds(2))
        .signingIdentity(network.clientMspId(), CryptoProvider.jdk());
  }

  private static EnvelopeFactory factory(SigningIdentity identity, Clock clock) {
    return new EnvelopeFactory(identity, clock);
  }

  private static byte[] data() {
    return "bad input".getBytes(StandardCharsets.US_ASCII);
  }
}
