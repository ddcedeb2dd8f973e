package io.rubinbft.orderer.deliver;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.ledger.StoredBlock;
import io.rubinbft.orderer.crypto.Fixtures;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.orderer.SeekInfo.SeekContentType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What Deliver sends for a stored block, against the blocks Fabric's orderer2 sent. */
class BlockContentTest {

  @Test
  void headerWithSignaturesOfADataBlockIsWhatFabricSent() {
    // Fabric's HEADER_WITH_SIG stream came from orderer2; its full block 1 is kept too.
    StoredBlock orderer2Block1 = stored("blocks/other-nodes/bft-001.orderer2.block", 1);

    ByteString sent =
        BlockContent.response(orderer2Block1, SeekContentType.HEADER_WITH_SIG)
            .getBlock()
            .toByteString();

    assertThat(sent)
        .isEqualTo(ByteString.copyFrom(Fixtures.bytes("blocks/header-with-sig/bft-001.block")));
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 6, 7})
  void configBlocksAreSentWhole(int number) {
    StoredBlock block = stored(String.format("blocks/bft-%03d.block", number), number);

    assertThat(BlockContent.isConfigBlock(block.block())).isTrue();
    assertThat(
            BlockContent.response(block, SeekContentType.HEADER_WITH_SIG).getBlock().toByteString())
        .isEqualTo(block.bytes());
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4, 5, 8, 9})
  void dataBlocksKeepHeaderAndMetadataOnly(int number) {
    StoredBlock block = stored(String.format("blocks/bft-%03d.block", number), number);

    Block sent = BlockContent.response(block, SeekContentType.HEADER_WITH_SIG).getBlock();

    assertThat(BlockContent.isConfigBlock(block.block())).isFalse();
    assertThat(sent.hasData()).isFalse();
    assertThat(sent.getHeader()).isEqualTo(block.block().getHeader());
    assertThat(sent.getMetadata()).isEqualTo(block.block().getMetadata());
    assertThat(BlockContent.response(block, SeekContentType.BLOCK).getBlock().toByteString())
        .isEqualTo(block.bytes());
  }

  private static StoredBlock stored(String file, long number) {
    ByteString bytes = ByteString.copyFrom(Fixtures.bytes(file));
    try {
      return new StoredBlock(number, bytes, Block.parseFrom(bytes));
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(e);
    }
  }
}
