package io.rubinbft.orderer.deliver;

import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.ledger.StoredBlock;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.HeaderType;
import org.hyperledger.fabric.protos.common.Payload;
import org.hyperledger.fabric.protos.orderer.DeliverResponse;
import org.hyperledger.fabric.protos.orderer.SeekInfo.SeekContentType;

/**
 * What a Deliver response carries for a stored block. The block was parsed once by the ledger
 * without copying its envelopes; serializing it again writes the same bytes (fields in number
 * order, envelopes as opaque bytes), so peers get the block exactly as stored.
 */
final class BlockContent {

  private BlockContent() {}

  /**
   * The response for {@code stored}: the whole block, or for HEADER_WITH_SIG the block with its
   * {@code data} field absent unless it is a config block, as Fabric's deliver handler does (the
   * header and the signatures in the metadata stay).
   */
  static DeliverResponse response(StoredBlock stored, SeekContentType contentType) {
    Block block = stored.block();
    if (contentType == SeekContentType.HEADER_WITH_SIG && !isConfigBlock(block)) {
      block = block.toBuilder().clearData().build();
    }
    return DeliverResponse.newBuilder().setBlock(block).build();
  }

  /** Fabric's protoutil.IsConfigBlock: exactly one envelope, whose type is CONFIG. */
  static boolean isConfigBlock(Block block) {
    if (block.getData().getDataCount() != 1) {
      return false;
    }
    try {
      Envelope envelope = Envelope.parseFrom(block.getData().getData(0));
      Payload payload = Payload.parseFrom(envelope.getPayload());
      if (!payload.hasHeader()) {
        return false;
      }
      ChannelHeader header = ChannelHeader.parseFrom(payload.getHeader().getChannelHeader());
      return header.getType() == HeaderType.CONFIG_VALUE;
    } catch (InvalidProtocolBufferException e) {
      return false;
    }
  }
}
