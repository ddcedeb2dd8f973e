package io.rubinbft.orderer.configtx;

import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.identity.SigningIdentity;
import io.rubinbft.orderer.testing.FabricFixtures;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.ConfigSignature;
import org.hyperledger.fabric.protos.common.ConfigUpdate;
import org.hyperledger.fabric.protos.common.ConfigUpdateEnvelope;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.HeaderType;
import org.hyperledger.fabric.protos.common.SignatureHeader;

/**
 * CONFIG_UPDATE envelopes signed by the fixture's real admins, laid out as {@code peer channel
 * signconfigtx} makes them: one ConfigSignature per signer over {@code signature_header ||
 * config_update}, the outer envelope signed by the first signer.
 */
public final class SignedUpdates {

  public static final SigningIdentity ORDERER_ADMIN =
      identity("crypto/ordererOrganizations/example.com/users/Admin@example.com/msp", "OrdererMSP");
  public static final SigningIdentity ORG1_ADMIN =
      identity(
          "crypto/peerOrganizations/org1.example.com/users/Admin@org1.example.com/msp", "Org1MSP");
  public static final SigningIdentity ORG1_USER =
      identity(
          "crypto/peerOrganizations/org1.example.com/users/User1@org1.example.com/msp", "Org1MSP");

  private static final SecureRandom RANDOM = new SecureRandom();

  private SignedUpdates() {}

  private static SigningIdentity identity(String mspDir, String mspId) {
    return SigningIdentity.fromMspDirectory(
        FabricFixtures.root().resolve(mspDir), mspId, CryptoProvider.preferNative());
  }

  /** {@code update} signed by every one of {@code signers}, in order. */
  public static Envelope signed(ConfigUpdate update, List<SigningIdentity> signers) {
    ByteString updateBytes = update.toByteString();
    ConfigUpdateEnvelope.Builder envelope =
        ConfigUpdateEnvelope.newBuilder().setConfigUpdate(updateBytes);
    for (SigningIdentity signer : signers) {
      ByteString header = signatureHeader(signer).toByteString();
      envelope.addSignatures(
          ConfigSignature.newBuilder()
              .setSignatureHeader(header)
              .setSignature(
                  ByteString.copyFrom(
                      signer.sign(header.toByteArray(), updateBytes.toByteArray()))));
    }
    SigningIdentity outer = signers.getFirst();
    ChannelHeader channelHeader =
        ChannelHeader.newBuilder()
            .setType(HeaderType.CONFIG_UPDATE_VALUE)
            .setChannelId(update.getChannelId())
            .setTimestamp(Timestamp.newBuilder().setSeconds(Instant.now().getEpochSecond()))
            .build();
    return new EnvelopeFactory(outer, Clock.systemUTC())
        .sign(channelHeader, envelope.build().toByteString());
  }

  private static SignatureHeader signatureHeader(SigningIdentity signer) {
    byte[] nonce = new byte[24];
    RANDOM.nextBytes(nonce);
    return SignatureHeader.newBuilder()
        .setCreator(signer.serialized())
        .setNonce(ByteString.copyFrom(nonce))
        .build();
  }
}
