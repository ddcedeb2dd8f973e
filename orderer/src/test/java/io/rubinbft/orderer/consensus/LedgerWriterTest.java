package io.rubinbft.orderer.consensus;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Proposal;
import io.rubinbft.ledger.BlockStore;
import io.rubinbft.ledger.BlockStoreConfig;
import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.ledger.Durability;
import io.rubinbft.orderer.concurrent.WorkerGroup;
import io.rubinbft.orderer.testing.FabricFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How the node learns that its ledger writer thread died: {@link LedgerWriter#failure} names why,
 * the replica host hands it on ({@code ReplicaHost.ledgerFailure}) and the {@code /healthz}
 * "ledger" check and the participation API report the channel failed.
 */
class LedgerWriterTest {

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
  void aDecisionThatCannotBeWrittenEndsTheWriterAndNamesWhy() throws Exception {
    LedgerWriter writer =
        new LedgerWriter(ledger, new OrderedTransactions(ledger), new WorkerGroup());
    assertThat(writer.failure()).isEmpty();

    Proposal notABlock = new Proposal(1, Digest.GENESIS, List.of(), new byte[] {1, 2, 3});
    writer.write(new Decision(notABlock, Digest.GENESIS, 0, List.of()));

    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (writer.failure().isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(writer.failure())
        .hasValueSatisfying(
            reason ->
                assertThat(reason)
                    .startsWith("ledger writer stopped: java.lang.IllegalStateException:")
                    .contains("decided proposal 1 is not a block"));
    assertThat(ledger.height()).isEqualTo(1);
    writer.close();
  }

  @Test
  void closedWithNothingQueuedTheWriterHasNoFailure() {
    LedgerWriter writer =
        new LedgerWriter(ledger, new OrderedTransactions(ledger), new WorkerGroup());

    writer.close();

    assertThat(writer.failure()).isEqualTo(Optional.empty());
  }
}
