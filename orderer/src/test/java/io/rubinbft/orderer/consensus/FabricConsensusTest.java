package io.rubinbft.orderer.consensus;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.ledger.BlockHashing;
import io.rubinbft.orderer.block.BlockSignatureVerifier;
import io.rubinbft.orderer.crypto.EcKeys;
import io.rubinbft.orderer.crypto.EcdsaVerifier;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.hyperledger.fabric.protos.common.Block;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Four bft-core replicas run the Fabric application with the fixture network's real consenter keys
 * and genesis config: the decided blocks chain from Fabric's genesis block and carry a quorum of
 * consenter signatures in Fabric v3's BFT form, exactly what a Fabric peer verifies; and the
 * consensus WALs bring the whole cluster back after every replica crashed.
 */
class FabricConsensusTest {

  @TempDir Path wals;

  @Test
  void fourReplicasOrderSignedFabricBlocksAfterTheGenesisBlock() throws Exception {
    try (FabricTestCluster cluster = new FabricTestCluster(wals, 64L << 20)) {
      cluster.submit(25);
      cluster.runUntilOrdered(25, 2_000);

      assertValidIdenticalChains(cluster, 25);
    }
  }

  @Test
  void theWholeClusterRecoversFromItsLogsAndKeepsTheChain() throws Exception {
    try (FabricTestCluster cluster = new FabricTestCluster(wals, 64L << 20)) {
      cluster.submit(40);
      cluster.runUntilOrdered(40, 4_000);
      List<Block> beforeCrash = List.copyOf(cluster.chain(0));

      cluster.crashAndRecoverAll();
      cluster.submit(40);
      cluster.runUntilOrdered(80, 8_000);

      assertValidIdenticalChains(cluster, 80);
      assertThat(cluster.chain(0).subList(0, beforeCrash.size())).isEqualTo(beforeCrash);
    }
  }

  @Test
  void stableCheckpointsCutTheLogsAndRecoveryStillWorks() throws Exception {
    try (FabricTestCluster cluster = new FabricTestCluster(wals, 128 << 10)) {
      cluster.submit(300);
      cluster.runUntilOrdered(300, 20_000);
      for (int r = 0; r < FabricTestCluster.NODES; r++) {
        assertThat(cluster.log(r).firstIndex()).as("replica %d's first WAL index", r).isPositive();
      }

      cluster.crashAndRecoverAll();
      cluster.submit(20);
      cluster.runUntilOrdered(320, 8_000);

      assertValidIdenticalChains(cluster, 320);
    }
  }

  private static void assertValidIdenticalChains(FabricTestCluster cluster, int transactions) {
    BlockSignatureVerifier signatures =
        new BlockSignatureVerifier(
            cluster.channel.consenters(),
            new EcKeys(FabricTestCluster.PROVIDER),
            new EcdsaVerifier(FabricTestCluster.PROVIDER));
    for (int r = 0; r < FabricTestCluster.NODES; r++) {
      assertThat(cluster.orderedCount(r))
          .as("transactions ordered by replica %d", r)
          .isEqualTo(transactions);
      Set<String> envelopes = new HashSet<>();
      Block previous = cluster.genesis;
      for (Block block : cluster.chain(r)) {
        assertThat(block.getHeader().getNumber()).isEqualTo(previous.getHeader().getNumber() + 1);
        assertThat(block.getHeader().getPreviousHash().toByteArray())
            .isEqualTo(BlockHashing.headerHash(previous.getHeader()));
        assertThat(signatures.check(block.getHeader(), block.getMetadata()).invalidReason())
            .isEmpty();
        block
            .getData()
            .getDataList()
            .forEach(e -> assertThat(envelopes.add(e.toStringUtf8())).isTrue());
        previous = block;
      }
      assertThat(cluster.chain(r).stream().map(Block::getHeader).toList())
          .isEqualTo(cluster.chain(0).stream().map(Block::getHeader).toList());
    }
  }
}
