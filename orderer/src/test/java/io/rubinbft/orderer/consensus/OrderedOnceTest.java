package io.rubinbft.orderer.consensus;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.RequestId;
import io.rubinbft.orderer.block.FabricProposals;
import io.rubinbft.orderer.block.ProposalBlocks;
import io.rubinbft.orderer.crypto.Sha256;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.hyperledger.fabric.protos.common.Block;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A transaction id already in the chain is never ordered again (issue 17): not after the whole
 * cluster restarted with logs cut by checkpoints (bft-core's memory of decided ids then no longer
 * holds it), and not when a Byzantine primary proposes it again (the backups' check).
 */
class OrderedOnceTest {

  @TempDir Path wals;

  @Test
  void resentTransactionsAreNotOrderedAgainAfterTheWholeClusterRestarted() throws Exception {
    try (FabricTestCluster cluster = new FabricTestCluster(wals, 128 << 10)) {
      List<Request> first = cluster.transactions(300, 200);
      cluster.submit(first);
      cluster.runUntilOrdered(300, 20_000);
      for (int r = 0; r < FabricTestCluster.NODES; r++) {
        assertThat(cluster.log(r).firstIndex()).as("replica %d's first WAL index", r).isPositive();
      }

      cluster.crashAndRecoverAll();
      cluster.submit(first.subList(0, 20));
      cluster.submit(1);
      // Runs until a replica ordered the resent ones too (the bug) or long enough for it to.
      cluster.runUntilOrdered(321, 3_000);

      for (int r = 0; r < FabricTestCluster.NODES; r++) {
        assertThat(cluster.orderedCount(r))
            .as("transactions ordered by replica %d", r)
            .isEqualTo(301);
        assertThat(txIds(cluster.chain(r))).hasSize(301);
      }
    }
  }

  @Test
  void backupsRefuseAProposalOfATransactionInTheChain() throws Exception {
    try (FabricTestCluster cluster = new FabricTestCluster(wals, 64L << 20)) {
      List<Request> ordered = cluster.transactions(5, 100);
      cluster.submit(ordered);
      cluster.runUntilOrdered(5, 2_000);
      List<Block> chain = cluster.chain(1);
      Block last = chain.getLast();
      long oldBlock = blockHolding(chain, ordered.get(2));
      FabricProposals<?> backup = cluster.backupAfter(chain);
      Request fresh = cluster.transactions(1, 100).getFirst();

      assertThat(proposalCheck(backup, last, List.of(fresh))).isEmpty();
      assertThat(proposalCheck(backup, last, List.of(fresh, ordered.get(2))))
          .hasValue(
              "envelope 1 ("
                  + ordered.get(2).id().key()
                  + ") was ordered already in block "
                  + oldBlock);
      // Under a fresh id the old envelope would pass every id-keyed check: the id must be its own.
      Request relabelled = new Request(new RequestId("tx", "fresh"), ordered.get(2).payload());
      assertThat(proposalCheck(backup, last, List.of(relabelled)))
          .hasValue("request 0 is labelled tx/fresh but its envelope is " + ordered.get(2).id());
    }
  }

  /**
   * The backup's verdict on a block of {@code batch} after {@code last}, as a primary builds it.
   */
  private static Optional<String> proposalCheck(
      FabricProposals<?> backup, Block last, List<Request> batch) {
    long sequence = last.getHeader().getNumber() + 1;
    Proposal previous =
        new Proposal(sequence - 1, Digest.GENESIS, List.of(), ProposalBlocks.payload(last));
    Proposal proposal =
        new Proposal(sequence, Digest.GENESIS, batch, backup.assemble(sequence, batch, previous));
    return backup.invalidReason(proposal, previous);
  }

  private static long blockHolding(List<Block> chain, Request request) {
    for (Block block : chain) {
      for (ByteString envelope : block.getData().getDataList()) {
        if (envelope.equals(ByteString.copyFrom(request.payload()))) {
          return block.getHeader().getNumber();
        }
      }
    }
    throw new AssertionError("not in the chain: " + request.id());
  }

  private static Set<String> txIds(List<Block> chain) {
    Set<String> ids = new HashSet<>();
    for (Block block : chain) {
      for (ByteString envelope : block.getData().getDataList()) {
        ids.add(
            FabricRequests.ofOrdered(envelope.toByteArray(), new Sha256(FabricTestCluster.PROVIDER))
                .id()
                .key());
      }
    }
    return ids;
  }
}
