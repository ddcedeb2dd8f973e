package io.rubinbft.orderer.identity;

import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.HexFormat;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Header;
import org.hyperledger.fabric.protos.common.HeaderType;
import org.hyperledger.fabric.protos.common.Payload;
import org.hyperledger.fabric.protos.common.SignatureHeader;
import org.hyperledger.fabric.protos.orderer.SeekInfo;

/**
 * Builds signed envelopes as Fabric's SDKs do: a channel header with a transaction id of {@code
 * hex(SHA-256(nonce || creator))}, a signature header with the creator and a 24-byte nonce, and an
 * ECDSA signature over the payload bytes.
 */
public final class EnvelopeFactory {

  private static final int NONCE_BYTES = 24;

  /** A signed envelope and its transaction id. */
  public record SignedEnvelope(String txId, Envelope envelope) {}

  private final SigningIdentity identity;
  private final Clock clock;
  private final SecureRandom random = new SecureRandom();

  public EnvelopeFactory(SigningIdentity identity, Clock clock) {
    this.identity = identity;
    this.clock = clock;
  }

  /** A transaction envelope (ENDORSER_TRANSACTION) carrying {@code data} on {@code channel}. */
  public SignedEnvelope transaction(String channel, byte[] data) {
    byte[] nonce = nonce();
    String txId = txId(nonce);
    ChannelHeader header = channelHeader(HeaderType.ENDORSER_TRANSACTION, channel, txId).build();
    return new SignedEnvelope(txId, sign(header, nonce, ByteString.copyFrom(data)));
  }

  /**
   * A Deliver request; {@code tlsCertHash} is SHA-256 of the client's TLS certificate when the
   * orderer runs mutual TLS, else empty.
   */
  public Envelope seek(String channel, SeekInfo seekInfo, ByteString tlsCertHash) {
    byte[] nonce = nonce();
    ChannelHeader header =
        channelHeader(HeaderType.DELIVER_SEEK_INFO, channel, "")
            .setTlsCertHash(tlsCertHash)
            .build();
    return sign(header, nonce, seekInfo.toByteString());
  }

  /**
   * {@code data} under {@code channelHeader}, which the caller lays out (a CONFIG envelope, a
   * CONFIG_UPDATE), and a signature header with a fresh nonce, signed over the payload bytes.
   */
  public Envelope sign(ChannelHeader channelHeader, ByteString data) {
    return sign(channelHeader, nonce(), data);
  }

  private Envelope sign(ChannelHeader channelHeader, byte[] nonce, ByteString data) {
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
            .setData(data)
            .build()
            .toByteString();
    return Envelope.newBuilder()
        .setPayload(payload)
        .setSignature(ByteString.copyFrom(identity.sign(payload.toByteArray())))
        .build();
  }

  private ChannelHeader.Builder channelHeader(HeaderType type, String channel, String txId) {
    Instant now = clock.instant();
    return ChannelHeader.newBuilder()
        .setType(type.getNumber())
        .setChannelId(channel)
        .setTxId(txId)
        .setTimestamp(
            Timestamp.newBuilder().setSeconds(now.getEpochSecond()).setNanos(now.getNano()));
  }

  private String txId(byte[] nonce) {
    try {
      MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
      sha256.update(nonce);
      sha256.update(identity.serialized().toByteArray());
      return HexFormat.of().formatHex(sha256.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform provides SHA-256", e);
    }
  }

  private byte[] nonce() {
    byte[] nonce = new byte[NONCE_BYTES];
    random.nextBytes(nonce);
    return nonce;
  }
}
