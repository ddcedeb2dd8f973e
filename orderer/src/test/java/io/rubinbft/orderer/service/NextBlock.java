package io.rubinbft.orderer.service;

import com.google.protobuf.ByteString;
import io.rubinbft.ledger.BlockHashing;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.BlockData;
import org.hyperledger.fabric.protos.common.BlockHeader;
import org.hyperledger.fabric.protos.common.BlockMetadata;
import org.hyperledger.fabric.protos.common.Envelope;

/** A block that extends a chain, as consensus would append it (unsigned: Deliver does not care). */
final class NextBlock {

  private NextBlock() {}

  static Block after(Block previous, Envelope envelope) {
    BlockData data = BlockData.newBuilder().addData(envelope.toByteString()).build();
    BlockMetadata.Builder metadata = BlockMetadata.newBuilder();
    for (int i = 0; i < 5; i++) {
      metadata.addMetadata(ByteString.EMPTY);
    }
    return Block.newBuilder()
        .setHeader(
            BlockHeader.newBuilder()
                .setNumber(previous.getHeader().getNumber() + 1)
                .setPreviousHash(ByteString.copyFrom(BlockHashing.headerHash(previous.getHeader())))
                .setDataHash(ByteString.copyFrom(BlockHashing.dataHash(data))))
        .setData(data)
        .setMetadata(metadata)
        .build();
  }
}
