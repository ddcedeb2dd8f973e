package io.rubinbft.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import io.rubinbft.testdata.FabricTestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The blocks Fabric v3.1.5's BFT orderer made, through our store. */
class GoldenBlocksTest {

  private static final int HEIGHT = 10;

  @TempDir Path dir;

  @Test
  void fabricsBlocksAreAcceptedInOrderAndReadBackByteForByte() throws IOException {
    try (BlockStore store = BlockStore.open(BlockStoreConfig.defaults(dir))) {
      ChannelLedger ledger = store.createChannel("fixture");
      for (int n = 0; n < HEIGHT; n++) {
        ledger.append(Files.readAllBytes(FabricTestData.block(n)), Durability.SYNCED);
      }
      assertThat(ledger.height()).isEqualTo(HEIGHT);
      assertThat(ledger.lastHeader().orElseThrow().getNumber()).isEqualTo(HEIGHT - 1);
    }
    try (BlockStore store = BlockStore.open(BlockStoreConfig.defaults(dir))) {
      ChannelLedger ledger = store.channel("fixture").orElseThrow();
      assertThat(ledger.height()).isEqualTo(HEIGHT);
      for (int n = 0; n < HEIGHT; n++) {
        assertThat(ledger.block(n).orElseThrow().bytes().toByteArray())
            .as("bytes of block %d", n)
            .isEqualTo(Files.readAllBytes(FabricTestData.block(n)));
      }
      assertThat(ChainVerifier.verify(ledger).ok()).isTrue();
    }
  }

  @Test
  void txIndexFindsEveryTransactionOfTheFixtures() throws IOException {
    List<String[]> txIds = new ArrayList<>();
    String facts = Files.readString(FabricTestData.root().resolve("blocks/facts.json"));
    for (JsonElement block :
        JsonParser.parseString(facts).getAsJsonObject().getAsJsonArray("blocks")) {
      int index = 0;
      for (JsonElement envelope : block.getAsJsonObject().getAsJsonArray("envelopes")) {
        String txId = envelope.getAsJsonObject().get("tx_id").getAsString();
        String number = block.getAsJsonObject().get("number").getAsString();
        // Fabric's orderer-made config envelopes (blocks 6 and 7) carry no tx id: not indexed.
        if (!txId.isEmpty()) {
          txIds.add(new String[] {txId, number, Integer.toString(index)});
        }
        index++;
      }
    }
    assertThat(txIds).hasSize(59);
    try (BlockStore store = BlockStore.open(BlockStoreConfig.defaults(dir))) {
      ChannelLedger ledger = store.createChannel("fixture");
      for (int n = 0; n < HEIGHT; n++) {
        ledger.append(Files.readAllBytes(FabricTestData.block(n)), Durability.UNSYNCED);
      }
      for (String[] tx : txIds) {
        assertThat(ledger.locate(tx[0]))
            .as("tx %s", tx[0])
            .contains(new TxLocation(Long.parseLong(tx[1]), Integer.parseInt(tx[2])));
        assertThat(ledger.blockByTxId(tx[0]).orElseThrow().number())
            .isEqualTo(Long.parseLong(tx[1]));
      }
      assertThat(ledger.locate("0".repeat(64))).isEmpty();
    }
  }
}
