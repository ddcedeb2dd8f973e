package io.rubinbft.orderer.validation;

import static io.rubinbft.orderer.validation.FixtureValidators.NOW;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.protobuf.ByteString;
import io.rubinbft.orderer.crypto.Fixtures;
import io.rubinbft.orderer.crypto.Sha256;
import io.rubinbft.orderer.msp.TestCa;
import io.rubinbft.orderer.policy.GenesisChannel;
import io.rubinbft.orderer.validation.TestEnvelopes.Signer;
import java.security.cert.CertificateEncodingException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.HeaderType;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.SeekInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Deliver validation against the requests Fabric answered (recorded at about 05:23:23Z). */
class DeliverValidatorTest {

  private static final ChannelRules FIXTURE =
      new ChannelRules(GenesisChannel.msps(), GenesisChannel.policies(), 10_485_760);

  private static DeliverResult validate(Envelope envelope) {
    return FixtureValidators.deliver(FIXTURE, NOW, false).validate(envelope, Optional.empty());
  }

  @Test
  void answersTheRecordedRequestsWithFabricsStatus() {
    for (JsonElement element :
        JsonParser.parseString(Fixtures.text("envelopes/deliver-responses.json"))
            .getAsJsonArray()) {
      JsonObject recorded = element.getAsJsonObject();
      String name = recorded.get("request").getAsString().replace(".envelope", "");
      Status fabric = Status.forNumber(recorded.get("status_code").getAsInt());

      DeliverResult result = validate(Fixtures.envelope(name));

      if (name.equals("deliver-seek-beyond-height-fail-if-not-ready")) {
        // 404 here is the Deliver service's answer to start 1000 > height with FAIL_IF_NOT_READY.
        assertThat(fabric).isEqualTo(Status.NOT_FOUND);
        SeekInfo seek = ((DeliverResult.Accepted) result).seekInfo();
        assertThat(seek.getBehavior()).isEqualTo(SeekInfo.SeekBehavior.FAIL_IF_NOT_READY);
        assertThat(seek.getStart().getSpecified().getNumber()).isEqualTo(1000);
      } else {
        assertThat(result.verdict().status()).as(name).isEqualTo(fabric);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "deliver-seek-peer-cli",
        "deliver-seek-peer-node-blocks",
        "deliver-seek-peer-node-headers",
        "deliver-seek-header-with-sig"
      })
  void acceptsWhatFabricsPeerAndCliSent(String name) {
    DeliverResult result = validate(Fixtures.envelope(name));

    assertThat(result).isInstanceOf(DeliverResult.Accepted.class);
    assertThat(((DeliverResult.Accepted) result).client().orElseThrow().mspId())
        .isEqualTo("Org1MSP");
  }

  /**
   * On a channel this node follows, Deliver serves the channel's orderers only: the Fabric peer's
   * request, accepted on a consenter, finds no channel here, as on Fabric's follower.
   */
  @Test
  void aFollowerAnswersAPeerOfTheChannelNotFound() {
    DeliverValidator follower =
        new DeliverValidator(
            id -> id.equals("fixture") ? Optional.of(FIXTURE.asFollower()) : Optional.empty(),
            Clock.fixed(NOW, ZoneOffset.UTC),
            DeliverValidator.DEFAULT_TIME_WINDOW,
            false,
            new Sha256(GenesisChannel.PROVIDER));

    DeliverResult result =
        follower.validate(Fixtures.envelope("deliver-seek-peer-node-blocks"), Optional.empty());

    assertThat(result.verdict().status()).isEqualTo(Status.NOT_FOUND);
    assertThat(validate(Fixtures.envelope("deliver-seek-peer-node-blocks")))
        .isInstanceOf(DeliverResult.Accepted.class);
  }

  @Test
  void theTimeWindowIsFifteenMinutesEitherWay() {
    Envelope envelope = Fixtures.envelope("deliver-seek-fixturetool");

    assertThat(
            FixtureValidators.deliver(FIXTURE, NOW.plusSeconds(900), false)
                .validate(envelope, Optional.empty())
                .verdict())
        .isEqualTo(Verdict.success());
    assertThat(
            FixtureValidators.deliver(FIXTURE, NOW.minusSeconds(900), false)
                .validate(envelope, Optional.empty())
                .verdict())
        .isEqualTo(Verdict.success());
    assertThat(
            FixtureValidators.deliver(FIXTURE, NOW.plusSeconds(901), false)
                .validate(envelope, Optional.empty())
                .verdict()
                .status())
        .isEqualTo(Status.BAD_REQUEST);
    assertThat(
            FixtureValidators.deliver(FIXTURE, NOW.minusSeconds(901), false)
                .validate(envelope, Optional.empty())
                .verdict()
                .status())
        .isEqualTo(Status.BAD_REQUEST);
  }

  @Test
  void bindsTheRequestToTheClientsTlsCertificateUnderMutualTls()
      throws CertificateEncodingException {
    ByteString clientCert =
        ByteString.copyFrom(
            TestCa.parse(
                    Fixtures.text(
                        "crypto/peerOrganizations/org1.example.com/users/User1@org1.example.com/tls/client.crt"))
                .getEncoded());
    ByteString hash =
        ByteString.copyFrom(new Sha256(GenesisChannel.PROVIDER).hash(clientCert.toByteArray()));
    ByteString seek = SeekInfo.getDefaultInstance().toByteString();
    Envelope bound =
        TestEnvelopes.signed(
            TestEnvelopes.header(HeaderType.DELIVER_SEEK_INFO, "fixture", NOW).setTlsCertHash(hash),
            Signer.user1(),
            seek);
    Envelope unbound =
        TestEnvelopes.signed(
            TestEnvelopes.header(HeaderType.DELIVER_SEEK_INFO, "fixture", NOW),
            Signer.user1(),
            seek);
    DeliverValidator mutual = FixtureValidators.deliver(FIXTURE, NOW, true);

    assertThat(mutual.validate(bound, Optional.of(clientCert)).verdict())
        .isEqualTo(Verdict.success());
    assertThat(mutual.validate(unbound, Optional.of(clientCert)).verdict())
        .isEqualTo(new Verdict(Status.BAD_REQUEST, "client didn't include its TLS cert hash"));
    assertThat(mutual.validate(bound, Optional.empty()).verdict())
        .isEqualTo(new Verdict(Status.BAD_REQUEST, "client didn't send a TLS certificate"));
    assertThat(
            mutual
                .validate(bound, Optional.of(clientCert.concat(ByteString.copyFromUtf8("x"))))
                .verdict()
                .info())
        .startsWith("claimed TLS cert hash is ");
    assertThat(
            FixtureValidators.deliver(FIXTURE, NOW, false)
                .validate(unbound, Optional.empty())
                .verdict())
        .isEqualTo(Verdict.success());
  }

  @Test
  void forbidsAnExpiredReader() {
    Envelope envelope = Fixtures.envelope("deliver-seek-fixturetool");
    Instant notAfter = Signer.user1().certificate().getNotAfter().toInstant();
    Instant later = notAfter.plusSeconds(60);
    Envelope fresh =
        TestEnvelopes.signed(
            TestEnvelopes.header(HeaderType.DELIVER_SEEK_INFO, "fixture", later),
            Signer.user1(),
            SeekInfo.getDefaultInstance().toByteString());

    Verdict verdict =
        FixtureValidators.deliver(FIXTURE, later, false)
            .validate(fresh, Optional.empty())
            .verdict();

    assertThat(verdict)
        .isEqualTo(new Verdict(Status.FORBIDDEN, "deliver client identity expired PT1M before"));
    assertThat(validate(envelope).verdict()).isEqualTo(Verdict.success());
  }

  @Test
  void forbidsAReaderFromAnUnknownCa() {
    TestCa.Issued stranger =
        TestCa.generate("ca.evil.example.com").issue("mallory", List.of("client"));
    Envelope envelope =
        TestEnvelopes.signed(
            TestEnvelopes.header(HeaderType.DELIVER_SEEK_INFO, "fixture", NOW),
            Signer.issued("Org1MSP", stranger),
            SeekInfo.getDefaultInstance().toByteString());

    assertThat(validate(envelope).verdict())
        .isEqualTo(
            new Verdict(
                Status.FORBIDDEN,
                "implicit policy evaluation failed - 0 sub-policies were satisfied, but this policy"
                    + " requires 1 of the 'Readers' sub-policies to be satisfied"));
  }

  @Test
  void answersMalformedRequestsWithBadRequest() {
    Envelope noHeader = Envelope.getDefaultInstance();
    Envelope badSeek =
        TestEnvelopes.signed(
            TestEnvelopes.header(HeaderType.DELIVER_SEEK_INFO, "fixture", NOW),
            Signer.user1(),
            ByteString.copyFrom(new byte[] {0x0a, 0x7f}));

    assertThat(validate(noHeader).verdict())
        .isEqualTo(new Verdict(Status.BAD_REQUEST, "envelope has no header"));
    assertThat(validate(badSeek).verdict().status()).isEqualTo(Status.BAD_REQUEST);
    assertThat(validate(badSeek).verdict().info()).startsWith("malformed seekInfo payload");
  }
}
