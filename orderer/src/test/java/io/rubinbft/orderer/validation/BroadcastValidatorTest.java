package io.rubinbft.orderer.validation;

import static io.rubinbft.orderer.validation.FixtureValidators.NOW;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.protobuf.ByteString;
import io.rubinbft.orderer.crypto.Fixtures;
import io.rubinbft.orderer.msp.TestCa;
import io.rubinbft.orderer.validation.TestEnvelopes.Signer;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Header;
import org.hyperledger.fabric.protos.common.HeaderType;
import org.hyperledger.fabric.protos.common.Payload;
import org.hyperledger.fabric.protos.common.Status;
import org.junit.jupiter.api.Test;

/** Broadcast validation against the envelopes Fabric answered, and the cases around them. */
class BroadcastValidatorTest {

  private static final ChannelRules FIXTURE = FixtureValidators.RULES;

  private static Verdict verdict(Envelope envelope) {
    return FixtureValidators.broadcast(FIXTURE, NOW).validate(envelope).verdict();
  }

  @Test
  void answersTheRejectedEnvelopesExactlyAsFabricDid() {
    for (JsonElement element :
        JsonParser.parseString(Fixtures.text("envelopes/rejected-broadcast-responses.json"))
            .getAsJsonArray()) {
      JsonObject recorded = element.getAsJsonObject();
      String name = recorded.get("envelope").getAsString();
      if (!name.startsWith("rejected-")) {
        continue; // oversize (not kept) and duplicate (a pool question) are tested below/elsewhere
      }
      Envelope envelope = Fixtures.envelope(name.replace(".envelope", ""));

      assertThat(verdict(envelope))
          .as(name)
          .isEqualTo(
              new Verdict(
                  Status.forNumber(recorded.get("status_code").getAsInt()),
                  recorded.get("info").getAsString()));
    }
  }

  @Test
  void acceptsTheTransactionsFabricOrderedIncludingTheTwoHourOldOne() {
    for (String name : List.of("tx-valid", "tx-stale-timestamp")) {
      BroadcastResult result =
          FixtureValidators.broadcast(FIXTURE, NOW).validate(Fixtures.envelope(name));

      assertThat(result).as(name).isInstanceOf(BroadcastResult.Accepted.class);
      BroadcastResult.Accepted accepted = (BroadcastResult.Accepted) result;
      assertThat(accepted.channelHeader().getChannelId()).isEqualTo("fixture");
      assertThat(accepted.creator().orElseThrow().mspId()).isEqualTo("Org1MSP");
    }
  }

  @Test
  void anOrdererMemberMayWrite() {
    Envelope envelope =
        TestEnvelopes.signed(
            TestEnvelopes.header(HeaderType.ENDORSER_TRANSACTION, "fixture", NOW),
            Signer.orderer1(),
            ByteString.copyFromUtf8("data"));

    assertThat(verdict(envelope)).isEqualTo(Verdict.success());
  }

  @Test
  void countsThePayloadAndTheSignatureAgainstAbsoluteMaxBytesAsFabricsSizeFilter() {
    Envelope envelope = Fixtures.envelope("tx-valid");
    int size = envelope.getPayload().size() + envelope.getSignature().size();
    ChannelRules payloadOnly =
        new ChannelRules(FIXTURE.msps(), FIXTURE.policies(), envelope.getPayload().size());

    assertThat(FixtureValidators.broadcast(payloadOnly, NOW).validate(envelope).verdict())
        .isEqualTo(
            new Verdict(
                Status.BAD_REQUEST,
                "message payload is "
                    + size
                    + " bytes and exceeds maximum allowed "
                    + envelope.getPayload().size()
                    + " bytes"));
    assertThat(
            FixtureValidators.broadcast(
                    new ChannelRules(FIXTURE.msps(), FIXTURE.policies(), size), NOW)
                .validate(envelope)
                .verdict())
        .isEqualTo(Verdict.success());
  }

  @Test
  void aConfigUpdateRefusedByTheFiltersCarriesFabricsPrefix() throws Exception {
    Envelope update = Envelope.parseFrom(Fixtures.bytes("config-update/batchsize-update.envelope"));
    Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
    ChannelRules small = new ChannelRules(FIXTURE.msps(), FIXTURE.policies(), 100);
    int size = update.getPayload().size() + update.getSignature().size();

    assertThat(BroadcastValidator.forClients(id -> Optional.of(small), clock).validate(update))
        .isEqualTo(
            new BroadcastResult.Rejected(
                new Verdict(
                    Status.BAD_REQUEST,
                    "config update for existing channel did not pass initial checks: message"
                        + " payload is "
                        + size
                        + " bytes and exceeds maximum allowed 100 bytes")));
    Envelope byStranger =
        TestEnvelopes.signed(
            TestEnvelopes.header(HeaderType.CONFIG_UPDATE, "fixture", NOW),
            Signer.issued(
                "Org1MSP",
                TestCa.generate("ca.evil.example.com").issue("mallory", List.of("client"))),
            ByteString.copyFromUtf8("update"));
    Verdict refused =
        BroadcastValidator.forClients(id -> Optional.of(FIXTURE), clock)
            .validate(byStranger)
            .verdict();
    assertThat(refused.status()).isEqualTo(Status.FORBIDDEN);
    assertThat(refused.info())
        .startsWith(
            "config update for existing channel did not pass initial checks: implicit policy"
                + " evaluation failed")
        .endsWith(": permission denied");
  }

  @Test
  void rejectsTheElevenMegabytePayloadFabricRejected() {
    byte[] data = new byte[11_000_000];
    long seed = 11L;
    new Random(seed).nextBytes(data);
    Envelope envelope =
        TestEnvelopes.signed(
            TestEnvelopes.header(HeaderType.ENDORSER_TRANSACTION, "fixture", NOW),
            Signer.user1(),
            ByteString.copyFrom(data));

    assertThat(verdict(envelope).info())
        .isEqualTo(
            "message payload is "
                + (envelope.getPayload().size() + envelope.getSignature().size())
                + " bytes and exceeds maximum allowed 10485760 bytes");
    assertThat(verdict(envelope).status()).isEqualTo(Status.BAD_REQUEST);
  }

  @Test
  void refusesConfigUpdatesInProposalsButPassesThemToTheConfigPathAtIngress() throws Exception {
    Envelope update = Envelope.parseFrom(Fixtures.bytes("config-update/batchsize-update.envelope"));

    assertThat(verdict(update))
        .isEqualTo(new Verdict(Status.BAD_REQUEST, BroadcastValidator.CONFIG_UPDATE_NOT_ORDERED));
    Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
    assertThat(BroadcastValidator.forClients(id -> Optional.of(FIXTURE), clock).validate(update))
        .isInstanceOfSatisfying(
            BroadcastResult.Accepted.class,
            accepted ->
                assertThat(accepted.channelHeader().getType())
                    .isEqualTo(HeaderType.CONFIG_UPDATE_VALUE));
  }

  @Test
  void rejectsConfigAndOrdererTransactionTypesAsFabricV3Does() throws Exception {
    Envelope genesisConfig = Envelope.parseFrom(Fixtures.block(0).getData().getData(0));

    assertThat(verdict(genesisConfig))
        .isEqualTo(
            new Verdict(
                Status.BAD_REQUEST, "message is of type that cannot be processed directly"));
    @SuppressWarnings("deprecation")
    HeaderType ordererTransaction = HeaderType.ORDERER_TRANSACTION;
    Envelope old =
        TestEnvelopes.signed(
            TestEnvelopes.header(ordererTransaction, "fixture", NOW),
            Signer.user1(),
            ByteString.EMPTY);
    assertThat(verdict(old))
        .isEqualTo(
            new Verdict(Status.BAD_REQUEST, "message is of type that is no longer supported"));
  }

  @Test
  void rejectsAnExpiredCreatorAsFabricDoes() {
    Envelope envelope = Fixtures.envelope("tx-valid");
    Instant notAfter = Signer.user1().certificate().getNotAfter().toInstant();

    assertThat(
            FixtureValidators.broadcast(FIXTURE, notAfter.plusSeconds(1))
                .validate(envelope)
                .verdict())
        .isEqualTo(new Verdict(Status.BAD_REQUEST, "broadcast client identity expired"));
    assertThat(
            FixtureValidators.broadcast(FIXTURE, notAfter.minusSeconds(1))
                .validate(envelope)
                .verdict())
        .isEqualTo(Verdict.success());
  }

  @Test
  void forbidsCreatorsTheChannelDoesNotKnow() {
    String writersFailure =
        "implicit policy evaluation failed - 0 sub-policies were satisfied, but this policy"
            + " requires 1 of the 'Writers' sub-policies to be satisfied: permission denied";
    TestCa.Issued stranger =
        TestCa.generate("ca.evil.example.com").issue("mallory", List.of("client"));
    Signer unknownCa = Signer.issued("Org1MSP", stranger);
    Signer unknownMsp = Signer.issued("EvilMSP", stranger);
    Signer peer =
        Signer.fixture(
            "Org1MSP", "peerOrganizations/org1.example.com", "peers", "peer0.org1.example.com");

    for (Signer signer : List.of(unknownCa, unknownMsp, peer)) {
      Envelope envelope =
          TestEnvelopes.signed(
              TestEnvelopes.header(HeaderType.ENDORSER_TRANSACTION, "fixture", NOW),
              signer,
              ByteString.copyFromUtf8("data"));

      assertThat(verdict(envelope))
          .as(signer.mspId() + " " + signer.certificate().getSubjectX500Principal())
          .isEqualTo(new Verdict(Status.FORBIDDEN, writersFailure));
    }
  }

  @Test
  void answersMalformedBytesWithBadRequest() {
    Envelope garbage =
        Envelope.newBuilder()
            .setPayload(ByteString.copyFrom(new byte[] {0x0a, 0x7f, 0x01}))
            .build();
    Envelope noChannelHeader =
        Envelope.newBuilder()
            .setPayload(
                Payload.newBuilder().setHeader(Header.getDefaultInstance()).build().toByteString())
            .build();

    assertThat(verdict(garbage).status()).isEqualTo(Status.BAD_REQUEST);
    assertThat(verdict(garbage).info())
        .startsWith("could not determine channel ID: error unmarshalling Payload");
    assertThat(verdict(noChannelHeader))
        .isEqualTo(
            new Verdict(
                Status.BAD_REQUEST, "could not determine channel ID: channel header not set"));
  }
}
