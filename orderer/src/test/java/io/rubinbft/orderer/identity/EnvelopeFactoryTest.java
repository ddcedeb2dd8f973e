package io.rubinbft.orderer.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.policy.ChannelPolicies;
import io.rubinbft.orderer.policy.GenesisChannel;
import io.rubinbft.orderer.policy.SignedData;
import io.rubinbft.orderer.testing.FabricFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.List;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.HeaderType;
import org.hyperledger.fabric.protos.common.Payload;
import org.hyperledger.fabric.protos.common.SignatureHeader;
import org.hyperledger.fabric.protos.orderer.SeekInfo;
import org.hyperledger.fabric.protos.orderer.SeekNewest;
import org.hyperledger.fabric.protos.orderer.SeekPosition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Envelopes made by our factory pass the fixture channel's own policies, as Fabric's SDK's do. */
class EnvelopeFactoryTest {

  private static final Path USER1 =
      FabricFixtures.root()
          .resolve("crypto/peerOrganizations/org1.example.com/users/User1@org1.example.com/msp");
  private static final Instant NOW = Instant.parse("2026-11-21T06:00:00Z");
  private static final ChannelPolicies POLICIES = GenesisChannel.policies();

  private final SigningIdentity user1 =
      SigningIdentity.fromMspDirectory(USER1, "Org1MSP", CryptoProvider.preferNative());
  private final EnvelopeFactory factory =
      new EnvelopeFactory(user1, Clock.fixed(NOW, ZoneOffset.UTC));

  @Test
  void transactionsSatisfyTheChannelWritersPolicy() throws Exception {
    EnvelopeFactory.SignedEnvelope signed = factory.transaction("fixture", new byte[300]);

    Payload payload = Payload.parseFrom(signed.envelope().getPayload());
    ChannelHeader header = ChannelHeader.parseFrom(payload.getHeader().getChannelHeader());
    assertThat(header.getType()).isEqualTo(HeaderType.ENDORSER_TRANSACTION_VALUE);
    assertThat(header.getChannelId()).isEqualTo("fixture");
    assertThat(header.getTimestamp().getSeconds()).isEqualTo(NOW.getEpochSecond());
    assertThat(header.getTxId()).isEqualTo(signed.txId()).isEqualTo(expectedTxId(payload));
    assertThat(payload.getData().size()).isEqualTo(300);
    assertThat(POLICIES.evaluate("/Channel/Writers", signedData(signed.envelope())).satisfied())
        .isTrue();
  }

  @Test
  void aTamperedEnvelopeNoLongerSatisfiesWriters() {
    Envelope envelope = factory.transaction("fixture", new byte[10]).envelope();
    byte[] payload = envelope.getPayload().toByteArray();
    payload[payload.length - 1] ^= 1;
    Envelope tampered = envelope.toBuilder().setPayload(ByteString.copyFrom(payload)).build();
    assertThat(POLICIES.evaluate("/Channel/Writers", signedData(tampered)).satisfied()).isFalse();
  }

  @Test
  void seekRequestsSatisfyTheChannelReadersPolicy() throws Exception {
    SeekPosition newest =
        SeekPosition.newBuilder().setNewest(SeekNewest.getDefaultInstance()).build();
    ByteString hash = ByteString.copyFrom(new byte[32]);
    Envelope seek =
        factory.seek(
            "fixture", SeekInfo.newBuilder().setStart(newest).setStop(newest).build(), hash);

    ChannelHeader header =
        ChannelHeader.parseFrom(
            Payload.parseFrom(seek.getPayload()).getHeader().getChannelHeader());
    assertThat(header.getType()).isEqualTo(HeaderType.DELIVER_SEEK_INFO_VALUE);
    assertThat(header.getTlsCertHash()).isEqualTo(hash);
    assertThat(POLICIES.evaluate("/Channel/Readers", signedData(seek)).satisfied()).isTrue();
  }

  @Test
  void anMspFolderWithoutItsKeyIsNamedInTheError(@TempDir Path folder) throws IOException {
    Files.createDirectories(folder.resolve("signcerts"));
    Files.createDirectories(folder.resolve("keystore"));
    Files.copy(
        USER1.resolve("signcerts/User1@org1.example.com-cert.pem"),
        folder.resolve("signcerts/cert.pem"));
    assertThatThrownBy(
            () -> SigningIdentity.fromMspDirectory(folder, "Org1MSP", CryptoProvider.jdk()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(folder.resolve("keystore") + " must hold exactly one file but holds 0");
  }

  private static List<SignedData> signedData(Envelope envelope) {
    try {
      Payload payload = Payload.parseFrom(envelope.getPayload());
      ByteString creator =
          SignatureHeader.parseFrom(payload.getHeader().getSignatureHeader()).getCreator();
      return List.of(new SignedData(envelope.getPayload(), creator, envelope.getSignature()));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static String expectedTxId(Payload payload) throws Exception {
    SignatureHeader signatureHeader =
        SignatureHeader.parseFrom(payload.getHeader().getSignatureHeader());
    MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
    sha256.update(signatureHeader.getNonce().toByteArray());
    sha256.update(signatureHeader.getCreator().toByteArray());
    return HexFormat.of().formatHex(sha256.digest());
  }
}
