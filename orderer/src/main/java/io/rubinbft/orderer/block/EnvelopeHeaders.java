package io.rubinbft.orderer.block;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import java.util.List;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.HeaderType;
import org.hyperledger.fabric.protos.common.Payload;

/**
 * Reads envelopes' channel headers for block-level rules. As in Fabric's {@code
 * protoutil.IsConfigBlock}, a block whose only envelope has channel header type CONFIG is a config
 * block and points at itself as the last config; a CONFIG envelope is always alone in its block.
 */
public final class EnvelopeHeaders {

  private EnvelopeHeaders() {}

  /**
   * The channel header of the envelope in {@code envelope}, or empty when it is not a well-formed
   * envelope. The one reading of an envelope's channel header where a malformed envelope is no
   * error (Broadcast's validation and config updates read theirs with Fabric's error texts).
   */
  public static Optional<ChannelHeader> channelHeader(ByteString envelope) {
    try {
      Payload payload = EnvelopeViews.payload(EnvelopeViews.envelope(envelope).getPayload());
      return Optional.of(ChannelHeader.parseFrom(payload.getHeader().getChannelHeader()));
    } catch (InvalidProtocolBufferException e) {
      // Envelope validation reports malformed envelopes; here they are simply not config ones.
      return Optional.empty();
    }
  }

  static boolean isConfig(ChannelHeader header) {
    return header.getType() == HeaderType.CONFIG_VALUE;
  }

  /** Whether {@code envelope} is a CONFIG envelope (the result of a config update). */
  public static boolean isConfigEnvelope(ByteString envelope) {
    return channelHeader(envelope).filter(EnvelopeHeaders::isConfig).isPresent();
  }

  /** Whether a block holding {@code envelopes} is a config block. */
  public static boolean isConfigBlock(List<ByteString> envelopes) {
    return envelopes.size() == 1 && isConfigEnvelope(envelopes.getFirst());
  }
}
