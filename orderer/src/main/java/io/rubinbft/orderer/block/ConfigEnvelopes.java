package io.rubinbft.orderer.block;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import java.util.List;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.HeaderType;
import org.hyperledger.fabric.protos.common.Payload;

/**
 * Tells CONFIG envelopes apart, as Fabric's {@code protoutil.IsConfigBlock} does: a block whose
 * only envelope has channel header type CONFIG is a config block, and points at itself as the last
 * config. A CONFIG envelope is always alone in its block.
 */
final class ConfigEnvelopes {

  private ConfigEnvelopes() {}

  /** True when {@code envelope} parses and its channel header type is CONFIG. */
  static boolean isConfig(ByteString envelope) {
    try {
      Payload payload = Payload.parseFrom(Envelope.parseFrom(envelope).getPayload());
      return ChannelHeader.parseFrom(payload.getHeader().getChannelHeader()).getType()
          == HeaderType.CONFIG_VALUE;
    } catch (InvalidProtocolBufferException e) {
      // Not an envelope at all: certainly not a config one; envelope validation reports it.
      return false;
    }
  }

  static boolean isConfigBlock(List<ByteString> envelopes) {
    return envelopes.size() == 1 && isConfig(envelopes.getFirst());
  }
}
