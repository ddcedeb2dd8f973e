package io.rubinbft.orderer.block;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonObject;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.orderer.channel.Fixtures;
import java.util.HexFormat;
import java.util.List;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.BlockMetadata;
import org.junit.jupiter.api.Test;

/** Our assembler rebuilds Fabric's blocks 1..9 from their envelopes and the previous header. */
class BlockAssemblerTest {

  private static final HexFormat HEX = HexFormat.of();

  @Test
  void rebuildsEveryFixtureBlock() throws InvalidProtocolBufferException {
    for (int n = 1; n < FixtureChain.HEIGHT; n++) {
      Block previous = Fixtures.block(n - 1);
      Block golden = Fixtures.block(n);
      Block ours =
          BlockAssembler.assemble(
              previous.getHeader(),
              golden.getData().getDataList(),
              FixtureChain.ordererMetadata(previous).getLastConfig().getIndex(),
              FixtureChain.ordererMetadata(golden).getConsenterMetadata());

      assertThat(ours.getHeader().toByteString())
          .as("header %d", n)
          .isEqualTo(golden.getHeader().toByteString());
      assertThat(ours.getData().toByteString())
          .as("data %d", n)
          .isEqualTo(golden.getData().toByteString());
      assertThat(withoutSignatures(ours.getMetadata()))
          .as("metadata %d", n)
          .isEqualTo(withoutSignatures(golden.getMetadata()));
      assertThat(ours.getMetadata()).isEqualTo(withoutSignatures(golden.getMetadata()));
    }
  }

  @Test
  void metadataBytesAreTheRecordedFacts() throws InvalidProtocolBufferException {
    for (int n = 1; n < FixtureChain.HEIGHT; n++) {
      JsonObject facts = FixtureChain.facts(n);
      long lastConfig = facts.get("last_config_index").getAsLong();
      ByteString consenter = ByteString.fromHex(facts.get("consenter_metadata").getAsString());
      BlockMetadata metadata = BlockAssembler.metadata(lastConfig, consenter);
      assertThat(metadata.getMetadataCount()).isEqualTo(5);
      assertThat(HEX.formatHex(SignedBlocks.signatures(metadata).getValue().toByteArray()))
          .isEqualTo(facts.get("signatures_metadata_value").getAsString());
      for (int i = 1; i < 5; i++) {
        assertThat(HEX.formatHex(metadata.getMetadata(i).toByteArray()))
            .isEqualTo(
                facts.getAsJsonArray("metadata_entries_1_to_4_hex").get(i - 1).getAsString());
      }
    }
  }

  @Test
  void aConfigBlockPointsAtItself() {
    Block block =
        BlockAssembler.assemble(
            Fixtures.block(5).getHeader(),
            Fixtures.block(6).getData().getDataList(),
            0,
            ViewMetadata.ofSequence(0, 6, 5).toByteString());
    assertThat(FixtureChain.ordererMetadata(block).getLastConfig().getIndex()).isEqualTo(6);
    assertThat(HEX.formatHex(block.getMetadata().getMetadata(1).toByteArray()))
        .isEqualTo("0a020806");
  }

  @Test
  void genesisLastConfigIsTheEmptyMessage() throws InvalidProtocolBufferException {
    // Block 1's value is 0a00 12021001: last_config present even when its index is 0.
    BlockMetadata metadata =
        BlockAssembler.metadata(0, ViewMetadata.ofSequence(0, 1, 0).toByteString());
    assertThat(HEX.formatHex(SignedBlocks.signatures(metadata).getValue().toByteArray()))
        .isEqualTo("0a0012021001");
    assertThat(metadata.getMetadata(1)).isEqualTo(ByteString.EMPTY);
  }

  @Test
  void refusesAnEmptyBlock() {
    assertThatThrownBy(
            () ->
                BlockAssembler.assemble(
                    Fixtures.block(0).getHeader(), List.of(), 0, ByteString.EMPTY))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static BlockMetadata withoutSignatures(BlockMetadata metadata)
      throws InvalidProtocolBufferException {
    ByteString unsigned =
        SignedBlocks.signatures(metadata).toBuilder().clearSignatures().build().toByteString();
    return metadata.toBuilder().setMetadata(0, unsigned).build();
  }
}
