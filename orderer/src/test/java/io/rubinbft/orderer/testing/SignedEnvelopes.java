package io.rubinbft.orderer.testing;

import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import io.rubinbft.orderer.identity.SigningIdentity;
import java.time.Instant;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Header;
import org.hyperledger.fabric.protos.common.HeaderType;
import org.hyperledger.fabric.protos.common.Payload;
import org.hyperledger.fabric.protos.common.SignatureHeader;

/** Signed envelopes of any header type, which EnvelopeFactory (a client's) does not make. */
public final class SignedEnvelopes {

  private SignedEnvelopes() {}

  /** An envelope of {@code type} on {@code channel} stamped {@code at}, signed by {@code by}. */
  public static Envelope signed(
      SigningIdentity by, HeaderType type, String channel, ByteString data, Instant at) {
    ChannelHeader header =
        ChannelHeader.newBuilder()
            .setType(type.getNumber())
            .setChannelId(channel)
            .setTxId("tx-" + System.nanoTime())
            .setTimestamp(
                Timestamp.newBuilder().setSeconds(at.getEpochSecond()).setNanos(at.getNano()))
            .build();
    ByteString payload =
        Payload.newBuilder()
            .setHeader(
                Header.newBuilder()
                    .setChannelHeader(header.toByteString())
                    .setSignatureHeader(
                        SignatureHeader.newBuilder()
                            .setCreator(by.serialized())
                            .setNonce(ByteString.copyFrom(new byte[24]))
                            .build()
                            .toByteString()))
            .setData(data)
            .build()
            .toByteString();
    return Envelope.newBuilder()
        .setPayload(payload)
        .setSignature(ByteString.copyFrom(by.sign(payload.toByteArray())))
        .build();
  }
}
