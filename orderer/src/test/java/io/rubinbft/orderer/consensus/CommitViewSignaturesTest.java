package io.rubinbft.orderer.consensus;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.bft.ArchiveRead;
import io.rubinbft.bft.CommitSignature;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Effects;
import io.rubinbft.bft.Event;
import io.rubinbft.bft.Outbound;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.message.Decisions;
import io.rubinbft.bft.message.FetchDecisions;
import io.rubinbft.bft.message.Status;
import io.rubinbft.bft.protocol.Replica;
import io.rubinbft.bft.spi.ReplicaServices;
import io.rubinbft.ledger.BlockStore;
import io.rubinbft.ledger.BlockStoreConfig;
import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.ledger.Durability;
import io.rubinbft.orderer.block.BlockSignatureVerifier;
import io.rubinbft.orderer.block.CommitViews;
import io.rubinbft.orderer.block.ProposalBlocks;
import io.rubinbft.orderer.block.SignedBlocks;
import io.rubinbft.orderer.block.ViewMetadata;
import io.rubinbft.orderer.crypto.EcKeys;
import io.rubinbft.orderer.crypto.EcdsaVerifier;
import io.rubinbft.orderer.crypto.Sha256;
import io.rubinbft.orderer.memory.MemoryBudgets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.MetadataSignature;
import org.hyperledger.fabric.protos.common.OrdererBlockMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Consenter signatures name the view of their commit (issue 17): with the fixture's real Fabric
 * keys, a block committed in view 3 carries view 3 in its ViewMetadata, every signature verifies in
 * view 3 and in no other, a block cannot hold signatures of two views, and the decision rebuilt
 * from the ledger names view 3 and is accepted by a fresh replica. A signature that named no view
 * verified in every view, so a certificate could be put together from commits of several views.
 */
class CommitViewSignaturesTest {

  private static final long VIEW = 3;

  @TempDir Path data;

  @Test
  void aBlockCommittedInALaterViewCarriesThatViewAndOnlyItsSignatures() throws Exception {
    try (FabricTestCluster cluster = new FabricTestCluster(data.resolve("wal"), 64L << 20);
        BlockStore store = BlockStore.open(BlockStoreConfig.defaults(data.resolve("ledger")))) {
      cluster.submit(4);
      cluster.runUntilOrdered(4, 2_000);
      Block decidedInViewZero = cluster.chain(0).getFirst();
      List<ReplicaServices> services = new ArrayList<>();
      for (int r = 0; r < FabricTestCluster.NODES; r++) {
        services.add(cluster.genesisOnlyServices(r));
      }
      ChannelLedger viewZeroLedger = store.createChannel("view-zero");
      viewZeroLedger.append(cluster.genesis.toByteArray(), Durability.SYNCED);
      viewZeroLedger.append(decidedInViewZero.toByteArray(), Durability.SYNCED);
      Decision viewZero = archive(viewZeroLedger, cluster, services.get(3)).getFirst();
      assertThat(viewZero.view()).isZero();
      Proposal proposal = viewZero.proposal();

      List<CommitSignature> certificate = new ArrayList<>();
      for (int r = 0; r < 3; r++) {
        byte[] signature = services.get(r).signer().signProposal(VIEW, proposal);
        for (long view = 0; view <= VIEW + 1; view++) {
          assertThat(services.get(3).signer().verifyProposalSignature(r, view, proposal, signature))
              .as("replica %d's view-%d signature checked in view %d", r, VIEW, view)
              .isEqualTo(view == VIEW);
        }
        certificate.add(new CommitSignature(r, signature));
      }
      Decision inView = new Decision(proposal, viewZero.digest(), VIEW, certificate);
      Block signed = ProposalBlocks.signedBlock(inView);

      assertThat(signed.getHeader()).isEqualTo(decidedInViewZero.getHeader());
      assertThat(signed.getData()).isEqualTo(decidedInViewZero.getData());
      ViewMetadata metadata = viewMetadata(signed);
      assertThat(metadata.viewId()).isEqualTo(VIEW);
      assertThat(metadata.latestSequence()).isEqualTo(1);
      assertThat(metadata.decisionsInView()).isZero();
      BlockSignatureVerifier verifier = verifier(cluster);
      assertThat(verifier.check(signed.getHeader(), signed.getMetadata()).hasQuorum()).isTrue();

      // One view-3 signature swapped for a view-0 one over the same proposal: two valid signers.
      List<MetadataSignature> mixed = new ArrayList<>(signatures(signed).subList(0, 2));
      mixed.add(signatures(decidedInViewZero).getLast());
      Block mixedViews = SignedBlocks.withSignatures(signed, mixed);
      assertThat(verifier.check(mixedViews.getHeader(), mixedViews.getMetadata()).validSigners())
          .hasSize(2);

      ChannelLedger ledger = store.createChannel("view-three");
      ledger.append(cluster.genesis.toByteArray(), Durability.SYNCED);
      ledger.append(signed.toByteArray(), Durability.SYNCED);
      Decision rebuilt = archive(ledger, cluster, services.get(3)).getFirst();
      assertThat(rebuilt.view()).isEqualTo(VIEW);
      assertThat(rebuilt.digest()).isEqualTo(viewZero.digest());
      assertThat(ProposalBlocks.signedBlock(rebuilt)).isEqualTo(signed);

      Replica fresh =
          Replica.start(
              ChannelReplicas.replicaConfig(
                  cluster.channel, 3, Duration.ofMillis(10), MemoryBudgets.standard()),
              services.get(3));
      Effects asked = fresh.step(new Event.Received(0, new Status(0, true, 1, 0)));
      assertThat(asked.sendNow())
          .extracting(Outbound::message)
          .hasAtLeastOneElementOfType(FetchDecisions.class);
      Effects applied = fresh.step(new Event.Received(0, new Decisions(List.of(rebuilt), 0)));
      assertThat(applied.decisions()).extracting(Decision::view).containsExactly(VIEW);
      assertThat(fresh.status().drops()).isEmpty();
    }
  }

  private static List<Decision> archive(
      ChannelLedger ledger, FabricTestCluster cluster, ReplicaServices services) {
    return new LedgerDecisionArchive(
            ledger,
            cluster.channel.consenters(),
            services.crypto(),
            new Sha256(FabricTestCluster.PROVIDER))
        .decisions(
            new ArchiveRead(3, 1, io.rubinbft.bft.Digest.GENESIS, 1, Decisions.MAX_ANSWER_BYTES));
  }

  private static BlockSignatureVerifier verifier(FabricTestCluster cluster) {
    return new BlockSignatureVerifier(
        cluster.channel.consenters(),
        new EcKeys(FabricTestCluster.PROVIDER),
        new EcdsaVerifier(FabricTestCluster.PROVIDER));
  }

  private static ViewMetadata viewMetadata(Block block) throws InvalidProtocolBufferException {
    OrdererBlockMetadata orderer =
        OrdererBlockMetadata.parseFrom(SignedBlocks.signatures(block.getMetadata()).getValue());
    assertThat(CommitViews.viewOf(block))
        .isEqualTo(ViewMetadata.parse(orderer.getConsenterMetadata()).viewId());
    return ViewMetadata.parse(orderer.getConsenterMetadata());
  }

  private static List<MetadataSignature> signatures(Block block)
      throws InvalidProtocolBufferException {
    return SignedBlocks.signatures(block.getMetadata()).getSignaturesList();
  }
}
