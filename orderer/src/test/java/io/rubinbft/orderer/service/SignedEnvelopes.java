package io.rubinbft.orderer.service;

import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import io.rubinbft.orderer.crypto.EcdsaSigner;
import io.rubinbft.orderer.identity.SigningIdentity;
import io.rubinbft.orderer.msp.TestCa;
import io.rubinbft.orderer.policy.GenesisChannel;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Header;
import org.hyperledger.fabric.protos.common.HeaderType;
import org.hyperledger.fabric.protos.common.Payload;
import org.hyperledger.fabric.protos.common.SignatureHeader;

/** Signed envelopes of any header type and by identities the fixtures do not have. */
final class SignedEnvelopes {

  private SignedEnvelopes() {}

  /** An envelope of {@code type} on {@code channel} at the recorded time, signed by {@code by}. */
  static Envelope signed(SigningIdentity by, HeaderType type, String channel, ByteString data) {
    Instant now = ServiceNode.RECORDED_AT;
    ChannelHeader header =
        ChannelHeader.newBuilder()
            .setType(type.getNumber())
            .setChannelId(channel)
            .setTxId("tx-" + System.nanoTime())
            .setTimestamp(
                Timestamp.newBuilder().setSeconds(now.getEpochSecond()).setNanos(now.getNano()))
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

  /** A client of Org1MSP whose certificate comes from a CA the channel does not know. */
  static SigningIdentity unknownCreator() {
    return identity(TestCa.generate("Unknown CA").issue("Stranger", List.of("client")));
  }

  /** A client certificate from Org1's real CA that expired a minute before the recorded time. */
  static SigningIdentity expiredCreator() {
    return org1ClientUntil(ServiceNode.RECORDED_AT.minusSeconds(60));
  }

  /** A client certificate from Org1's real CA, valid until {@code notAfter}. */
  static SigningIdentity org1ClientUntil(Instant notAfter) {
    TestCa org1 = TestCa.org1();
    Instant caStart = org1.certificate().getNotBefore().toInstant();
    return identity(
        org1.issue("Org1 client", List.of("client"), caStart.plusSeconds(60), notAfter));
  }

  private static SigningIdentity identity(TestCa.Issued issued) {
    return new SigningIdentity(
        "Org1MSP",
        TestCa.pem(issued.certificate()).getBytes(StandardCharsets.UTF_8),
        new EcdsaSigner(GenesisChannel.PROVIDER, issued.keys().getPrivate()));
  }
}
