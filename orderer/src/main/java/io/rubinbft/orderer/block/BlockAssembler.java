package io.rubinbft.orderer.block;

import com.google.protobuf.ByteString;
import io.rubinbft.ledger.BlockHashing;
import java.util.List;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.BlockData;
import org.hyperledger.fabric.protos.common.BlockHeader;
import org.hyperledger.fabric.protos.common.BlockMetadata;
import org.hyperledger.fabric.protos.common.LastConfig;
import org.hyperledger.fabric.protos.common.Metadata;
import org.hyperledger.fabric.protos.common.OrdererBlockMetadata;

/**
 * Builds the next Fabric block exactly as Fabric v3's BFT orderer lays it out (SmartBFT assembler):
 * header {number, previous_hash = hash of the previous header, data_hash}, the envelopes byte for
 * byte, and five metadata entries:
 *
 * <pre>
 * [0] SIGNATURES          Metadata{value: OrdererBlockMetadata{last_config{index}, consenter_metadata}}
 *                         (signatures are added by consenters later, see BlockSigner)
 * [1] LAST_CONFIG         Metadata{value: LastConfig{index}}: empty bytes while the index is 0
 * [2] TRANSACTIONS_FILTER empty (the peer fills it)
 * [3] ORDERER             empty
 * [4] COMMIT_HASH         empty
 * </pre>
 */
public final class BlockAssembler {

  private BlockAssembler() {}

  /**
   * The block after {@code previous} holding {@code envelopes}.
   *
   * @param lastConfigIndex number of the newest config block before this one; a config block (one
   *     CONFIG envelope) points at itself instead
   * @param consenterMetadata {@code OrdererBlockMetadata.consenter_metadata}, e.g. {@link
   *     ViewMetadata#toByteString()}
   */
  public static Block assemble(
      BlockHeader previous,
      List<ByteString> envelopes,
      long lastConfigIndex,
      ByteString consenterMetadata) {
    if (envelopes.isEmpty()) {
      throw new IllegalArgumentException("a block needs at least one envelope");
    }
    long number = previous.getNumber() + 1;
    BlockData data = BlockData.newBuilder().addAllData(envelopes).build();
    BlockHeader header =
        BlockHeader.newBuilder()
            .setNumber(number)
            .setPreviousHash(ByteString.copyFrom(BlockHashing.headerHash(previous)))
            .setDataHash(ByteString.copyFrom(BlockHashing.dataHash(data)))
            .build();
    long lastConfig = EnvelopeHeaders.isConfigBlock(envelopes) ? number : lastConfigIndex;
    return Block.newBuilder()
        .setHeader(header)
        .setData(data)
        .setMetadata(metadata(lastConfig, consenterMetadata))
        .build();
  }

  /**
   * The five metadata entries of an unsigned block with this last config and consenter metadata.
   */
  static BlockMetadata metadata(long lastConfig, ByteString consenterMetadata) {
    LastConfig last = LastConfig.newBuilder().setIndex(lastConfig).build();
    OrdererBlockMetadata orderer =
        OrdererBlockMetadata.newBuilder()
            .setLastConfig(last)
            .setConsenterMetadata(consenterMetadata)
            .build();
    return BlockMetadata.newBuilder()
        .addMetadata(Metadata.newBuilder().setValue(orderer.toByteString()).build().toByteString())
        .addMetadata(Metadata.newBuilder().setValue(last.toByteString()).build().toByteString())
        .addMetadata(ByteString.EMPTY)
        .addMetadata(ByteString.EMPTY)
        .addMetadata(ByteString.EMPTY)
        .build();
  }
}
