package io.rubinbft.orderer.validation;

import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import io.rubinbft.orderer.crypto.EcKeys;
import io.rubinbft.orderer.crypto.EcdsaSigner;
import io.rubinbft.orderer.crypto.Fixtures;
import io.rubinbft.orderer.msp.TestCa;
import io.rubinbft.orderer.policy.GenesisChannel;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Instant;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Header;
import org.hyperledger.fabric.protos.common.HeaderType;
import org.hyperledger.fabric.protos.common.Payload;
import org.hyperledger.fabric.protos.common.SignatureHeader;

/** Signed envelopes made in tests, shaped like Fabric clients' (24-byte nonce, PEM creator). */
final class TestEnvelopes {

  private TestEnvelopes() {}

  /** A signer: MSP ID, certificate and its private key. */
  record Signer(String mspId, X509Certificate certificate, PrivateKey key) {

    static Signer fixture(String mspId, String org, String kind, String name) {
      try {
        return new Signer(
            mspId,
            TestCa.parse(Fixtures.signCert(org, kind, name)),
            new EcKeys(GenesisChannel.PROVIDER)
                .privateKeyFromPem(Fixtures.signKey(org, kind, name)));
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException(e);
      }
    }

    static Signer user1() {
      return fixture(
          "Org1MSP", "peerOrganizations/org1.example.com", "users", "User1@org1.example.com");
    }

    static Signer orderer1() {
      return fixture(
          "OrdererMSP", "ordererOrganizations/example.com", "orderers", "orderer1.example.com");
    }

    static Signer issued(String mspId, TestCa.Issued issued) {
      return new Signer(mspId, issued.certificate(), issued.keys().getPrivate());
    }
  }

  static ChannelHeader.Builder header(HeaderType type, String channel, Instant timestamp) {
    return ChannelHeader.newBuilder()
        .setType(type.getNumber())
        .setChannelId(channel)
        .setTimestamp(
            Timestamp.newBuilder()
                .setSeconds(timestamp.getEpochSecond())
                .setNanos(timestamp.getNano()));
  }

  static Envelope signed(ChannelHeader.Builder channelHeader, Signer signer, ByteString data) {
    SignatureHeader signatureHeader =
        SignatureHeader.newBuilder()
            .setCreator(TestCa.serialized(signer.mspId(), signer.certificate()))
            .setNonce(ByteString.copyFrom(new byte[24]))
            .build();
    Payload payload =
        Payload.newBuilder()
            .setHeader(
                Header.newBuilder()
                    .setChannelHeader(channelHeader.build().toByteString())
                    .setSignatureHeader(signatureHeader.toByteString()))
            .setData(data)
            .build();
    ByteString bytes = payload.toByteString();
    byte[] signature =
        new EcdsaSigner(GenesisChannel.PROVIDER, signer.key()).sign(bytes.toByteArray());
    return Envelope.newBuilder()
        .setPayload(bytes)
        .setSignature(ByteString.copyFrom(signature))
        .build();
  }
}
