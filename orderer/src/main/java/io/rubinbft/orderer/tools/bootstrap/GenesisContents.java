package io.rubinbft.orderer.tools.bootstrap;

import com.google.protobuf.InvalidProtocolBufferException;
import java.util.List;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.Config;
import org.hyperledger.fabric.protos.common.ConfigEnvelope;
import org.hyperledger.fabric.protos.common.ConfigGroup;
import org.hyperledger.fabric.protos.common.Consenter;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Orderers;
import org.hyperledger.fabric.protos.common.Payload;

/**
 * The two facts {@link LocalNetwork} checks before it keeps an existing genesis block: its channel
 * and its consenter mapping. (Reading channel configs in general is the channel config parser's
 * job; this reads only what bootstrap itself wrote.)
 */
record GenesisContents(String channelId, List<Consenter> consenters) {

  static GenesisContents of(Block block) throws InvalidProtocolBufferException {
    if (block.getData().getDataCount() != 1) {
      throw new InvalidProtocolBufferException(
          "a genesis block holds 1 envelope, this one " + block.getData().getDataCount());
    }
    Payload payload =
        Payload.parseFrom(Envelope.parseFrom(block.getData().getData(0)).getPayload());
    ChannelHeader header = ChannelHeader.parseFrom(payload.getHeader().getChannelHeader());
    Config config = ConfigEnvelope.parseFrom(payload.getData()).getConfig();
    ConfigGroup orderer = config.getChannelGroup().getGroupsMap().get("Orderer");
    if (orderer == null || !orderer.getValuesMap().containsKey("Orderers")) {
      throw new InvalidProtocolBufferException("the config has no /Channel/Orderer/Orderers value");
    }
    Orderers orderers = Orderers.parseFrom(orderer.getValuesMap().get("Orderers").getValue());
    return new GenesisContents(header.getChannelId(), orderers.getConsenterMappingList());
  }
}
