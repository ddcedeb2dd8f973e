package io.rubinbft.orderer.service;

import com.google.protobuf.ByteString;
import io.rubinbft.orderer.identity.SigningIdentity;
import io.rubinbft.orderer.msp.TestCa;
import io.rubinbft.orderer.policy.GenesisChannel;
import java.time.Instant;
import java.util.List;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.HeaderType;

/** Signed envelopes of any header type and by identities the fixtures do not have. */
final class SignedEnvelopes {

  private SignedEnvelopes() {}

  /** An envelope of {@code type} on {@code channel} at the recorded time, signed by {@code by}. */
  static Envelope signed(SigningIdentity by, HeaderType type, String channel, ByteString data) {
    return io.rubinbft.orderer.testing.SignedEnvelopes.signed(
        by, type, channel, data, ServiceNode.RECORDED_AT);
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
    return issued.signingIdentity("Org1MSP", GenesisChannel.PROVIDER);
  }
}
