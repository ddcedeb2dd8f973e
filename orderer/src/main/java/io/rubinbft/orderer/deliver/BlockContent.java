package io.rubinbft.orderer.deliver;

import io.rubinbft.ledger.StoredBlock;
import io.rubinbft.orderer.block.EnvelopeHeaders;
import org.hyperledger.fabric.protos.common.Block;
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
    return EnvelopeHeaders.isConfigBlock(block.getData().getDataList());
  }
}
