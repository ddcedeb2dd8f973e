package io.rubinbft.orderer.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.protobuf.ByteString;
import io.grpc.stub.StreamObserver;
import io.rubinbft.orderer.crypto.Fixtures;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.identity.EnvelopeFactory.SignedEnvelope;
import io.rubinbft.orderer.identity.SigningIdentity;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.HeaderType;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.BroadcastResponse;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Broadcast over real gRPC against Fabric's recorded answers and issue 6's bad inputs. */
class BroadcastServiceTest {

  @TempDir Path directory;

  @AutoClose private ServiceNode node;

  @BeforeEach
  void start() throws IOException {
    node = ServiceNode.start(directory);
  }

  @Test
  void rejectsTheRecordedEnvelopesAsFabricDidAndEndsTheStream() throws InterruptedException {
    int checked = 0;
    for (JsonElement element :
        JsonParser.parseString(Fixtures.text("envelopes/rejected-broadcast-responses.json"))
            .getAsJsonArray()) {
      JsonObject recorded = element.getAsJsonObject();
      String file = "envelopes/" + recorded.get("envelope").getAsString();
      if (!file.startsWith("envelopes/rejected-")) {
        continue; // the resent tx and the unkept 11 MB envelope have tests of their own
      }
      Streams<BroadcastResponse> stream = new Streams<>();
      node.stub().broadcast(stream).onNext(envelope(file));

      BroadcastResponse response = stream.next();
      assertThat(response.getStatus()).as(file).isEqualTo(Status.valueOf(status(recorded)));
      assertThat(response.getInfo()).as(file).isEqualTo(recorded.get("info").getAsString());
      assertThat(stream.end().isOk()).as(file).isTrue();
      checked++;
    }
    assertThat(checked).isEqualTo(3);
    assertThat(node.channel.submissions()).isEmpty();
  }

  @Test
  void submitsTheRecordedTransactionsByteForByteAndAcceptsACopyOnce() throws InterruptedException {
    Envelope valid = envelope("envelopes/tx-valid.envelope");
    Envelope stale = envelope("envelopes/tx-stale-timestamp.envelope");
    Streams<BroadcastResponse> stream = new Streams<>();
    StreamObserver<Envelope> requests = node.stub().broadcast(stream);
    requests.onNext(valid);
    requests.onNext(stale);
    assertThat(stream.next().getStatus()).isEqualTo(Status.SUCCESS);
    assertThat(stream.next().getStatus()).isEqualTo(Status.SUCCESS);
    assertThat(node.channel.submissions())
        .extracting(RecordingChannel.Submission::envelope)
        .containsExactly(valid, stale);
    assertThat(node.channel.submissions().getFirst().envelope().toByteString())
        .isEqualTo(ByteString.copyFrom(Fixtures.bytes("envelopes/tx-valid.envelope")));

    requests.onNext(valid);
    BroadcastResponse resent = stream.next();
    assertThat(resent.getStatus()).isEqualTo(Status.SUCCESS);
    assertThat(node.channel.submissions()).hasSize(2);
  }

  @Test
  void oversizedPayloadIsRefusedWithFabricsAnswer() throws InterruptedException {
    byte[] data = new byte[11_000_000];
    new Random(6).nextBytes(data);
    Envelope oversized = ServiceNode.user1Envelopes().transaction("fixture", data).envelope();

    BroadcastResponse response = single(oversized);

    assertThat(response.getStatus()).isEqualTo(Status.BAD_REQUEST);
    assertThat(response.getInfo())
        .isEqualTo(
            "message payload is "
                + (oversized.getPayload().size() + oversized.getSignature().size())
                + " bytes and exceeds maximum allowed 10485760 bytes");
    assertThat(node.channel.submissions()).isEmpty();
  }

  @Test
  void configUpdatesGoToTheConfigPathAndConfigEnvelopesAreRefused() throws InterruptedException {
    SigningIdentity user1 = ServiceNode.user1();
    Envelope update = SignedEnvelopes.signed(user1, HeaderType.CONFIG_UPDATE, "fixture", bytes());
    assertThat(single(update)).isEqualTo(response(Status.SUCCESS, ""));
    assertThat(node.channel.configUpdates()).containsExactly(update);
    assertThat(single(SignedEnvelopes.signed(user1, HeaderType.CONFIG, "fixture", bytes())))
        .isEqualTo(
            response(Status.BAD_REQUEST, "message is of type that cannot be processed directly"));
    assertThat(node.channel.submissions()).isEmpty();
  }

  @Test
  void unknownAndExpiredCreatorsAreRefused() throws InterruptedException {
    Envelope unknown =
        SignedEnvelopes.signed(
            SignedEnvelopes.unknownCreator(), HeaderType.ENDORSER_TRANSACTION, "fixture", bytes());
    Envelope expired =
        SignedEnvelopes.signed(
            SignedEnvelopes.expiredCreator(), HeaderType.ENDORSER_TRANSACTION, "fixture", bytes());

    assertThat(single(unknown))
        .isEqualTo(
            response(
                Status.FORBIDDEN,
                "implicit policy evaluation failed - 0 sub-policies were satisfied, but this"
                    + " policy requires 1 of the 'Writers' sub-policies to be satisfied:"
                    + " permission denied"));
    assertThat(single(expired))
        .isEqualTo(response(Status.BAD_REQUEST, "broadcast client identity expired"));
    assertThat(node.channel.submissions()).isEmpty();
  }

  @Test
  void aPayloadThatIsNotProtobufIsABadRequest() throws InterruptedException {
    Envelope garbage =
        Envelope.newBuilder().setPayload(ByteString.copyFrom(new byte[] {(byte) 0xff})).build();

    BroadcastResponse response = single(garbage);

    assertThat(response.getStatus()).isEqualTo(Status.BAD_REQUEST);
    assertThat(response.getInfo())
        .startsWith("could not determine channel ID: error unmarshalling Payload");
    assertThat(node.channel.submissions()).isEmpty();
  }

  @Test
  void anEnvelopeThatIsNotProtobufFailsTheCall() throws InterruptedException {
    io.grpc.Status status = RawCalls.broadcast(node.client(), new byte[] {(byte) 0xff, 0x01});

    // grpc-java's answer to a request it cannot parse; grpc-go (Fabric) answers INTERNAL.
    assertThat(status.getCode()).isEqualTo(io.grpc.Status.Code.UNKNOWN);
    assertThat(node.channel.submissions()).isEmpty();
    assertThat(single(envelope("envelopes/tx-valid.envelope")).getStatus())
        .isEqualTo(Status.SUCCESS);
  }

  @Test
  void pipelinedEnvelopesAreAnsweredInOrderUntilTheFirstRefusal() throws InterruptedException {
    EnvelopeFactory user1 = ServiceNode.user1Envelopes();
    List<SignedEnvelope> sent = new ArrayList<>();
    Streams<BroadcastResponse> stream = new Streams<>();
    StreamObserver<Envelope> requests = node.stub().broadcast(stream);
    for (int i = 0; i < 300; i++) {
      SignedEnvelope envelope =
          user1.transaction("fixture", ("tx " + i).getBytes(StandardCharsets.UTF_8));
      sent.add(envelope);
      requests.onNext(envelope.envelope());
    }
    requests.onNext(envelope("envelopes/rejected-bad-signature.envelope"));
    requests.onNext(user1.transaction("fixture", new byte[] {1}).envelope());

    for (int i = 0; i < sent.size(); i++) {
      assertThat(stream.next().getStatus()).as("response %d", i).isEqualTo(Status.SUCCESS);
    }
    assertThat(stream.next().getStatus()).isEqualTo(Status.FORBIDDEN);
    assertThat(stream.end().isOk()).isTrue();
    assertThat(stream.pending()).isZero();
    assertThat(node.channel.submissions())
        .extracting(RecordingChannel.Submission::txId)
        .containsExactlyElementsOf(sent.stream().map(SignedEnvelope::txId).toList());
  }

  @Test
  void aFullRequestPoolPushesBack(@TempDir Path other) throws IOException, InterruptedException {
    try (ServiceNode small = ServiceNode.start(other, 2)) {
      EnvelopeFactory user1 = ServiceNode.user1Envelopes();
      Streams<BroadcastResponse> stream = new Streams<>();
      StreamObserver<Envelope> requests = small.stub().broadcast(stream);
      for (int i = 0; i < 3; i++) {
        requests.onNext(user1.transaction("fixture", new byte[] {(byte) i}).envelope());
      }
      assertThat(stream.next().getStatus()).isEqualTo(Status.SUCCESS);
      assertThat(stream.next().getStatus()).isEqualTo(Status.SUCCESS);
      assertThat(stream.next())
          .isEqualTo(
              response(
                  Status.SERVICE_UNAVAILABLE,
                  "failed to submit request: request pool is full (2 requests)"));
      assertThat(stream.end().isOk()).isTrue();
      assertThat(small.channel.submissions()).hasSize(2);
    }
  }

  private BroadcastResponse single(Envelope envelope) throws InterruptedException {
    Streams<BroadcastResponse> stream = new Streams<>();
    StreamObserver<Envelope> requests = node.stub().broadcast(stream);
    requests.onNext(envelope);
    requests.onCompleted();
    BroadcastResponse response = stream.next();
    assertThat(stream.end().isOk()).isTrue();
    return response;
  }

  private static BroadcastResponse response(Status status, String info) {
    return BroadcastResponse.newBuilder().setStatus(status).setInfo(info).build();
  }

  private static String status(JsonObject recorded) {
    return recorded.get("status").getAsString();
  }

  private static ByteString bytes() {
    return ByteString.copyFromUtf8("data");
  }

  private static Envelope envelope(String file) {
    try {
      return Envelope.parseFrom(Fixtures.bytes(file));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
