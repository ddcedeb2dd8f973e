package io.rubinbft.orderer.participation;

import com.google.protobuf.InvalidProtocolBufferException;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.ConfigUpdate;
import org.hyperledger.fabric.protos.common.ConfigUpdateEnvelope;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.HeaderType;
import org.hyperledger.fabric.protos.common.Payload;

/**
 * Fabric's ValidateUpdateConfigEnvelope: the first look at {@code osnadmin channel update}'s
 * envelope, finding the channel it is for (the ConfigUpdate's channel id).
 */
final class UpdateEnvelopes {

  private static final String PREFIX = "invalid config update envelope: ";

  private UpdateEnvelopes() {}

  /**
   * @throws IllegalArgumentException with Fabric's message when the envelope is no CONFIG_UPDATE
   */
  static String channelId(Envelope envelope) {
    Payload payload;
    try {
      payload = Payload.parseFrom(envelope.getPayload());
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(PREFIX + "bad payload", e);
    }
    if (!payload.hasHeader() || payload.getHeader().getChannelHeader().isEmpty()) {
      throw new IllegalArgumentException(PREFIX + "bad header");
    }
    ChannelHeader header;
    try {
      header = ChannelHeader.parseFrom(payload.getHeader().getChannelHeader());
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(PREFIX + "could not unmarshall channel header", e);
    }
    if (header.getType() != HeaderType.CONFIG_UPDATE_VALUE) {
      throw new IllegalArgumentException(PREFIX + "bad type");
    }
    if (header.getChannelId().isEmpty()) {
      throw new IllegalArgumentException(PREFIX + "empty channel id");
    }
    try {
      ConfigUpdateEnvelope update = ConfigUpdateEnvelope.parseFrom(payload.getData());
      return ConfigUpdate.parseFrom(update.getConfigUpdate()).getChannelId();
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(PREFIX + e.getMessage(), e);
    }
  }
}
