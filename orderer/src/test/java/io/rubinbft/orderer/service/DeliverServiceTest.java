package io.rubinbft.orderer.service;

import static io.rubinbft.orderer.service.DeliverClient.specified;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.protobuf.ByteString;
import io.grpc.stub.ClientCallStreamObserver;
import io.rubinbft.ledger.Durability;
import io.rubinbft.orderer.crypto.Fixtures;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.identity.SigningIdentity;
import io.rubinbft.orderer.service.DeliverClient.Answer;
import io.rubinbft.orderer.validation.ChannelRules;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.HeaderType;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.SeekInfo.SeekBehavior;
import org.hyperledger.fabric.protos.orderer.SeekInfo.SeekContentType;
import org.hyperledger.fabric.protos.orderer.SeekNewest;
import org.hyperledger.fabric.protos.orderer.SeekNextCommit;
import org.hyperledger.fabric.protos.orderer.SeekOldest;
import org.hyperledger.fabric.protos.orderer.SeekPosition;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Deliver over real gRPC from a RocksDB ledger holding Fabric's blocks 0..9. */
class DeliverServiceTest {

  private static final SeekPosition OLDEST =
      SeekPosition.newBuilder().setOldest(SeekOldest.getDefaultInstance()).build();
  private static final SeekPosition NEWEST =
      SeekPosition.newBuilder().setNewest(SeekNewest.getDefaultInstance()).build();

  @TempDir Path directory;

  @AutoClose private ServiceNode node;

  @BeforeEach
  void start() throws IOException {
    node = ServiceNode.start(directory);
  }

  @Test
  void answersTheRecordedRequestsWithFabricsStatusAndBlocks() throws InterruptedException {
    for (JsonElement element :
        JsonParser.parseString(Fixtures.text("envelopes/deliver-responses.json"))
            .getAsJsonArray()) {
      JsonObject recorded = element.getAsJsonObject();
      String request = recorded.get("request").getAsString();
      List<ByteString> expectedBlocks = new ArrayList<>();
      recorded.getAsJsonArray("blocks").forEach(n -> expectedBlocks.add(stored(n.getAsInt())));
      DeliverClient client = new DeliverClient(node.stub());

      Answer answer = client.request(envelope("envelopes/" + request));

      assertThat(answer.status())
          .as(request)
          .isEqualTo(Status.forNumber(recorded.get("status_code").getAsInt()));
      assertThat(answer.blocks()).as(request).isEqualTo(expectedBlocks);
      if (answer.status() != Status.SUCCESS) {
        assertThat(client.responses.end().isOk()).as(request).isTrue();
      }
    }
    assertThat(node.ledger.height()).isEqualTo(ServiceNode.FIXTURE_HEIGHT);
  }

  @Test
  void servesTheWholeChainExactlyAsStored() throws InterruptedException {
    Answer answer =
        new DeliverClient(node.stub())
            .request(
                DeliverClient.seek(
                    OLDEST, NEWEST, SeekBehavior.BLOCK_UNTIL_READY, SeekContentType.BLOCK));

    assertThat(answer.status()).isEqualTo(Status.SUCCESS);
    assertThat(answer.blocks())
        .isEqualTo(LongStream.range(0, 10).mapToObj(n -> stored((int) n)).toList());
  }

  @Test
  void thePeerClisFetchGetsItsBlock() throws InterruptedException {
    // `peer channel fetch 1` as the peer CLI sent it: Specified(1)..Specified(1).
    Answer answer =
        new DeliverClient(node.stub())
            .request(envelope("envelopes/deliver-seek-peer-cli.envelope"));

    assertThat(answer).isEqualTo(new Answer(List.of(stored(1)), Status.SUCCESS));
  }

  @Test
  void headersWithSignaturesMatchWhatFabricSent() throws InterruptedException, IOException {
    Answer answer =
        new DeliverClient(node.stub())
            .request(envelope("envelopes/deliver-seek-header-with-sig.envelope"));

    assertThat(answer.status()).isEqualTo(Status.SUCCESS);
    assertThat(answer.blocks()).hasSize(10);
    for (int n = 0; n < 10; n++) {
      Block ours = Block.parseFrom(answer.blocks().get(n));
      Block fabric =
          Block.parseFrom(
              Fixtures.bytes(String.format("blocks/header-with-sig/bft-%03d.block", n)));
      // Fabric's stream came from orderer2, whose signature sets differ from orderer1's blocks.
      assertThat(ours.getHeader()).as("block %d", n).isEqualTo(fabric.getHeader());
      assertThat(ours.hasData()).as("block %d", n).isEqualTo(fabric.hasData());
      assertThat(ours.getData()).as("block %d", n).isEqualTo(fabric.getData());
      assertThat(ours.getMetadata()).isEqualTo(Block.parseFrom(stored(n)).getMetadata());
    }
    assertThat(answer.blocks().getFirst())
        .isEqualTo(ByteString.copyFrom(Fixtures.bytes("blocks/header-with-sig/bft-000.block")));
  }

  @Test
  void aWaitingStreamGetsTheBlockAppendedAfterItAsked() throws InterruptedException {
    DeliverClient client = new DeliverClient(node.stub());
    client.requests.onNext(DeliverClient.seek(9, 10, SeekBehavior.BLOCK_UNTIL_READY));
    assertThat(client.responses.next().getBlock().toByteString()).isEqualTo(stored(9));

    Block next = appendBlockTen();

    Answer answer = client.answer();
    assertThat(answer.blocks()).containsExactly(next.toByteString());
    assertThat(answer.status()).isEqualTo(Status.SUCCESS);
  }

  @Test
  void seeksOnOneStreamAreServedInTurnUntilTheClientHangsUp() throws InterruptedException {
    DeliverClient client = new DeliverClient(node.stub());
    Envelope first = DeliverClient.seek(0, 1, SeekBehavior.BLOCK_UNTIL_READY);
    Envelope second =
        DeliverClient.seek(NEWEST, NEWEST, SeekBehavior.FAIL_IF_NOT_READY, SeekContentType.BLOCK);
    client.requests.onNext(first);
    client.requests.onNext(second);
    client.requests.onCompleted();

    assertThat(client.answer())
        .isEqualTo(new Answer(List.of(stored(0), stored(1)), Status.SUCCESS));
    assertThat(client.answer()).isEqualTo(new Answer(List.of(stored(9)), Status.SUCCESS));
    assertThat(client.responses.end().isOk()).isTrue();
  }

  @Test
  void aRangeRunningPastTheHeightWithFailIfNotReadyEndsWithNotFound() throws InterruptedException {
    Answer answer =
        new DeliverClient(node.stub())
            .request(DeliverClient.seek(8, 12, SeekBehavior.FAIL_IF_NOT_READY));

    assertThat(answer).isEqualTo(new Answer(List.of(stored(8), stored(9)), Status.NOT_FOUND));
  }

  @Test
  void aStartBeyondTheHeightIsNotFoundAtOnceEvenWhenTheClientWaits() throws InterruptedException {
    // Fabric's file ledger has no iterator beyond its height: `peer channel fetch 1000` gets 404.
    Answer answer =
        new DeliverClient(node.stub())
            .request(DeliverClient.seek(11, 11, SeekBehavior.BLOCK_UNTIL_READY));

    assertThat(answer).isEqualTo(new Answer(List.of(), Status.NOT_FOUND));
  }

  @Test
  void aStartAtTheHeightWaitsForTheNextBlock() throws InterruptedException {
    DeliverClient client = new DeliverClient(node.stub());
    client.requests.onNext(DeliverClient.seek(10, 10, SeekBehavior.BLOCK_UNTIL_READY));

    Block next = appendBlockTen();

    assertThat(client.answer()).isEqualTo(new Answer(List.of(next.toByteString()), Status.SUCCESS));
  }

  @Test
  void oldestToNextCommitEndsAfterBlockZero() throws InterruptedException {
    // Fabric leaves the stop number of a NextCommit stop at zero.
    Envelope seek =
        DeliverClient.seek(
            OLDEST,
            SeekPosition.newBuilder().setNextCommit(SeekNextCommit.getDefaultInstance()).build(),
            SeekBehavior.BLOCK_UNTIL_READY,
            SeekContentType.BLOCK);

    assertThat(new DeliverClient(node.stub()).request(seek))
        .isEqualTo(new Answer(List.of(stored(0)), Status.SUCCESS));
  }

  @Test
  void startAfterStopIsABadRequest() throws InterruptedException {
    DeliverClient client = new DeliverClient(node.stub());

    Answer answer = client.request(DeliverClient.seek(5, 3, SeekBehavior.BLOCK_UNTIL_READY));

    assertThat(answer).isEqualTo(new Answer(List.of(), Status.BAD_REQUEST));
    assertThat(client.responses.end().isOk()).isTrue();
  }

  @Test
  void aReaderTheChannelDoesNotKnowIsForbidden() throws InterruptedException {
    Envelope seek = seekBy(SignedEnvelopes.unknownCreator(), 0, 0);

    assertThat(new DeliverClient(node.stub()).request(seek))
        .isEqualTo(new Answer(List.of(), Status.FORBIDDEN));
  }

  @Test
  void readersAreCheckedAgainWhenTheConfigChanges() throws InterruptedException {
    DeliverClient client = new DeliverClient(node.stub());
    client.requests.onNext(DeliverClient.seek(9, 10, SeekBehavior.BLOCK_UNTIL_READY));
    assertThat(client.responses.next().getBlock().toByteString()).isEqualTo(stored(9));

    node.channel.install(ConfigChanges.withoutOrg1Readers());
    appendBlockTen();

    assertThat(client.answer()).isEqualTo(new Answer(List.of(), Status.FORBIDDEN));
    assertThat(client.responses.end().isOk()).isTrue();
  }

  /** Fabric's SigFilter in maintenance mode: /Channel/Orderer/Readers, also on an open stream. */
  @Test
  void aStreamOfAnApplicationReaderEndsWhenTheChannelEntersMaintenance()
      throws InterruptedException {
    DeliverClient client = new DeliverClient(node.stub());
    client.requests.onNext(DeliverClient.seek(9, 10, SeekBehavior.BLOCK_UNTIL_READY));
    assertThat(client.responses.next().getBlock().toByteString()).isEqualTo(stored(9));

    ChannelRules normal = ServiceNode.genesisRules();
    node.channel.install(
        new ChannelRules(normal.msps(), normal.policies(), normal.absoluteMaxBytes(), true));
    appendBlockTen();

    assertThat(client.answer()).isEqualTo(new Answer(List.of(), Status.FORBIDDEN));
  }

  @Test
  void anExpiredReaderIsForbidden() throws InterruptedException {
    Envelope seek = seekBy(SignedEnvelopes.expiredCreator(), 0, 0);

    assertThat(new DeliverClient(node.stub()).request(seek))
        .isEqualTo(new Answer(List.of(), Status.FORBIDDEN));
  }

  @Test
  void aStreamEndsWhenTheReadersCertificateExpires() throws InterruptedException {
    Instant notAfter = ServiceNode.RECORDED_AT.plus(Duration.ofHours(1));
    DeliverClient client = new DeliverClient(node.stub());
    client.requests.onNext(seekBy(SignedEnvelopes.org1ClientUntil(notAfter), 9, 10));
    assertThat(client.responses.next().getBlock().toByteString()).isEqualTo(stored(9));

    node.clock.set(notAfter.plusSeconds(1));
    appendBlockTen();

    assertThat(client.answer()).isEqualTo(new Answer(List.of(), Status.FORBIDDEN));
  }

  @Test
  void removingTheChannelEndsAWaitingStream() throws InterruptedException {
    DeliverClient client = new DeliverClient(node.stub());
    client.requests.onNext(DeliverClient.seek(9, 10, SeekBehavior.BLOCK_UNTIL_READY));
    assertThat(client.responses.next().getBlock().toByteString()).isEqualTo(stored(9));

    node.channels.stopServing(ServiceNode.CHANNEL);
    node.store.removeChannel(ServiceNode.CHANNEL);

    assertThat(client.answer()).isEqualTo(new Answer(List.of(), Status.SERVICE_UNAVAILABLE));
    assertThat(client.responses.end().isOk()).isTrue();
  }

  @Test
  void aPeerStreamingForeverCanHangUp() throws InterruptedException, IOException {
    DeliverClient client = new DeliverClient(node.stub());
    client.requests.onNext(envelope("envelopes/deliver-seek-peer-node-headers.envelope"));
    for (int n = 3; n < 10; n++) {
      assertThat(Block.parseFrom(client.responses.next().getBlock().toByteString()))
          .extracting(b -> b.getHeader().getNumber())
          .isEqualTo((long) n);
    }

    ((ClientCallStreamObserver<Envelope>) client.requests).cancel("peer leaves", null);

    assertThat(client.responses.end().getCode()).isEqualTo(io.grpc.Status.Code.CANCELLED);
    assertThat(
            new DeliverClient(node.stub())
                .request(DeliverClient.seek(0, 0, SeekBehavior.FAIL_IF_NOT_READY)))
        .isEqualTo(new Answer(List.of(stored(0)), Status.SUCCESS));
  }

  @Test
  void anEnvelopeThatIsNotProtobufFailsTheCall() throws InterruptedException {
    io.grpc.Status status = RawCalls.deliver(node.client(), new byte[] {(byte) 0xff, 0x01});

    assertThat(status.getCode()).isEqualTo(io.grpc.Status.Code.UNKNOWN);
  }

  @Test
  void anEnvelopeWhoseDataIsNotASeekIsABadRequest() throws InterruptedException {
    Envelope update =
        SignedEnvelopes.signed(
            ServiceNode.user1(), HeaderType.CONFIG_UPDATE, "fixture", ByteString.copyFromUtf8("x"));

    assertThat(new DeliverClient(node.stub()).request(update).status())
        .isEqualTo(Status.BAD_REQUEST);
  }

  /** A seek of blocks {@code from..to}, waiting for them, signed by {@code reader}. */
  private static Envelope seekBy(SigningIdentity reader, long from, long to) {
    return DeliverClient.seekBy(
        new EnvelopeFactory(reader, ServiceNode.RECORDED_CLOCK),
        specified(from),
        specified(to),
        SeekBehavior.BLOCK_UNTIL_READY,
        SeekContentType.BLOCK,
        ByteString.EMPTY);
  }

  /** Appends block 10 (a valid transaction after the fixture's block 9), unsynced. */
  private Block appendBlockTen() {
    Block next = NextBlock.after(Fixtures.block(9), envelope("envelopes/tx-valid.envelope"));
    node.ledger.append(next.toByteArray(), Durability.UNSYNCED);
    return next;
  }

  static ByteString stored(int number) {
    return ByteString.copyFrom(Fixtures.bytes(String.format("blocks/bft-%03d.block", number)));
  }

  static Envelope envelope(String file) {
    try {
      return Envelope.parseFrom(Fixtures.bytes(file));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
