package io.rubinbft.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.rubinbft.testdata.FabricTestData;
import java.io.IOException;
import java.nio.file.Files;
import java.util.HexFormat;
import org.hyperledger.fabric.protos.common.Block;
import org.junit.jupiter.api.Test;

/** Our hashing against the blocks Fabric v3.1.5's BFT orderer made (testdata/fabric/blocks). */
class BlockHashingTest {

  private static final HexFormat HEX = HexFormat.of();
  private static final int HEIGHT = 10;

  @Test
  void headerHashOfEachBlockIsTheNextBlocksPreviousHash() throws IOException {
    for (int n = 0; n + 1 < HEIGHT; n++) {
      Block block = read(n);
      Block next = read(n + 1);
      assertThat(BlockHashing.headerHash(block.getHeader()))
          .as("hash of block %d", n)
          .isEqualTo(next.getHeader().getPreviousHash().toByteArray());
    }
  }

  @Test
  void dataHashEqualsEachHeadersDataHash() throws IOException {
    for (int n = 0; n < HEIGHT; n++) {
      Block block = read(n);
      assertThat(BlockHashing.dataHash(block.getData()))
          .as("data hash of block %d", n)
          .isEqualTo(block.getHeader().getDataHash().toByteArray());
    }
  }

  @Test
  void headerDerAndHashEqualTheRecordedFacts() throws IOException {
    String facts = Files.readString(FabricTestData.root().resolve("blocks/facts.json"));
    for (JsonElement element :
        JsonParser.parseString(facts).getAsJsonObject().getAsJsonArray("blocks")) {
      JsonObject fact = element.getAsJsonObject();
      Block block = read(fact.get("number").getAsInt());
      assertThat(HEX.formatHex(BlockHashing.headerDer(block.getHeader())))
          .isEqualTo(fact.get("header_der").getAsString());
      assertThat(HEX.formatHex(BlockHashing.headerHash(block.getHeader())))
          .isEqualTo(fact.get("header_hash").getAsString());
    }
  }

  private static Block read(int number) throws IOException {
    return Block.parseFrom(Files.readAllBytes(FabricTestData.block(number)));
  }
}
