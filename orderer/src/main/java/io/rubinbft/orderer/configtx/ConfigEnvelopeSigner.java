package io.rubinbft.orderer.configtx;

import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import io.rubinbft.orderer.identity.SigningIdentity;
import java.security.SecureRandom;
import java.time.Clock;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.ConfigEnvelope;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Header;
import org.hyperledger.fabric.protos.common.HeaderType;
import org.hyperledger.fabric.protos.common.Payload;
import org.hyperledger.fabric.protos.common.SignatureHeader;

/**
 * Wraps a new config into the CONFIG envelope this orderer signs, laid out as Fabric's
 * CreateSignedEnvelope makes it (block 6 of the fixtures): channel header {type CONFIG, version 0,
 * timestamp in whole seconds, channel id, epoch 0, no tx id}, signature header {this orderer's
 * identity, 24-byte nonce}, data = the ConfigEnvelope, signed over the payload bytes.
 */
public final class ConfigEnvelopeSigner {

  private static final int NONCE_BYTES = 24;

  private final SigningIdentity identity;
  private final Clock clock;
  private final SecureRandom random = new SecureRandom();

  public ConfigEnvelopeSigner(SigningIdentity identity, Clock clock) {
    this.identity = identity;
    this.clock = clock;
  }

  public Envelope sign(String channelId, ConfigEnvelope configEnvelope) {
    ChannelHeader channelHeader =
        ChannelHeader.newBuilder()
            .setType(HeaderType.CONFIG_VALUE)
            .setChannelId(channelId)
            .setTimestamp(Timestamp.newBuilder().setSeconds(clock.instant().getEpochSecond()))
            .build();
    byte[] nonce = new byte[NONCE_BYTES];
    random.nextBytes(nonce);
    SignatureHeader signatureHeader =
        SignatureHeader.newBuilder()
            .setCreator(identity.serialized())
            .setNonce(ByteString.copyFrom(nonce))
            .build();
    ByteString payload =
        Payload.newBuilder()
            .setHeader(
                Header.newBuilder()
                    .setChannelHeader(channelHeader.toByteString())
                    .setSignatureHeader(signatureHeader.toByteString()))
            .setData(configEnvelope.toByteString())
            .build()
            .toByteString();
    return Envelope.newBuilder()
        .setPayload(payload)
        .setSignature(ByteString.copyFrom(identity.sign(payload.toByteArray())))
        .build();
  }
}
