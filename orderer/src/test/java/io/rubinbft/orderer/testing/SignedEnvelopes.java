package io.rubinbft.orderer.testing;

import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.identity.SigningIdentity;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.HeaderType;

/**
 * Signed envelopes of any header type, which EnvelopeFactory's own (a client's) do not cover: the
 * channel header is laid out here, the signing is EnvelopeFactory's.
 */
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
    return new EnvelopeFactory(by, Clock.fixed(at, ZoneOffset.UTC)).sign(header, data);
  }
}
