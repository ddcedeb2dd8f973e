package io.rubinbft.orderer.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.ledger.BlockStore;
import io.rubinbft.ledger.BlockStoreConfig;
import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.ledger.Durability;
import io.rubinbft.orderer.testing.FabricFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ledger check on a real RocksDB block store holding Fabric's genesis block. */
class NodeHealthTest {

  @TempDir Path dir;

  private BlockStore store;
  private ChannelLedger ledger;

  @BeforeEach
  void open() throws Exception {
    store = BlockStore.open(BlockStoreConfig.defaults(dir));
    ledger = store.createChannel("mychannel");
    ledger.append(
        Files.readAllBytes(FabricFixtures.root().resolve("bft-genesis.block")), Durability.SYNCED);
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void aReadableLedgerWithItsWriterRunningIsHealthy() {
    assertThat(NodeHealth.ledgerFailure(ledger, Optional.empty())).isEmpty();
  }

  @Test
  void aStoppedWriterIsReported() {
    assertThat(NodeHealth.ledgerFailure(ledger, Optional.of("ledger writer stopped: disk full")))
        .contains("ledger writer stopped: disk full");
  }

  @Test
  void aClosedBlockStoreIsReported() {
    store.close();

    assertThat(NodeHealth.ledgerFailure(ledger, Optional.empty()))
        .hasValueSatisfying(
            reason -> assertThat(reason).startsWith("block store cannot be read: "));
  }
}
