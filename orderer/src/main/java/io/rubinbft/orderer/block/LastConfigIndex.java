package io.rubinbft.orderer.block;

import com.google.protobuf.InvalidProtocolBufferException;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.BlockMetadataIndex;
import org.hyperledger.fabric.protos.common.Metadata;
import org.hyperledger.fabric.protos.common.OrdererBlockMetadata;

/**
 * The last config index a block carries, read where Fabric v2+ peers read it: the {@code
 * OrdererBlockMetadata} in the SIGNATURES metadata entry (block 0 holds index 0 there too).
 */
public final class LastConfigIndex {

  private LastConfigIndex() {}

  /**
   * @throws IllegalArgumentException when the SIGNATURES entry is missing or does not decode
   */
  public static long of(Block block) {
    int entry = BlockMetadataIndex.SIGNATURES_VALUE;
    if (block.getMetadata().getMetadataCount() <= entry) {
      throw new IllegalArgumentException(
          "block " + block.getHeader().getNumber() + " has no SIGNATURES metadata");
    }
    try {
      Metadata metadata = Metadata.parseFrom(block.getMetadata().getMetadata(entry));
      return OrdererBlockMetadata.parseFrom(metadata.getValue()).getLastConfig().getIndex();
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(
          "block "
              + block.getHeader().getNumber()
              + "'s SIGNATURES metadata does not decode: "
              + e.getMessage(),
          e);
    }
  }
}
