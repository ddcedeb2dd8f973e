package io.rubinbft.orderer.consensus;

import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.Request;
import io.rubinbft.orderer.block.FabricProposals;
import io.rubinbft.orderer.block.ProposalBlocks;
import io.rubinbft.testdata.fuzz.Fuzzer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hyperledger.fabric.protos.common.Block;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fuzzing of what a Byzantine primary proposes (README "Fuzzing"): the block a proposal carries and
 * the envelopes of its requests, checked by a backup after a real chain. The check answers with a
 * reason or none; an exception would stop the backup's replica ({@code ReplicaHost} stops a replica
 * on any exception rather than vote on), so one bad proposal must never throw.
 */
class ProposalFuzzTest {

  @TempDir static Path wals;

  private static FabricTestCluster cluster;
  private static FabricProposals<?> backup;
  private static Proposal previous;
  private static long sequence;
  private static List<Request> batch;

  @BeforeAll
  static void chain() throws Exception {
    cluster = new FabricTestCluster(wals, 64L << 20);
    cluster.submit(cluster.transactions(5, 100));
    cluster.runUntilOrdered(5, 2_000);
    List<Block> chain = cluster.chain(1);
    backup = cluster.backupAfter(chain);
    Block last = chain.getLast();
    sequence = last.getHeader().getNumber() + 1;
    previous = new Proposal(sequence - 1, Digest.GENESIS, List.of(), ProposalBlocks.payload(last));
    batch = cluster.transactions(2, 100);
  }

  @AfterAll
  static void close() {
    cluster.close();
  }

  @Test
  void proposedBlocksAreCheckedWithoutThrowing() {
    byte[] payload = backup.assemble(sequence, batch, previous);
    Fuzzer.of("orderer proposal block", List.of(payload))
        .inputs(2_000)
        .run(
            (bytes, random) ->
                backup
                    .invalidReason(new Proposal(sequence, Digest.GENESIS, batch, bytes), previous)
                    .isEmpty());
  }

  @Test
  void proposedEnvelopesAreCheckedWithoutThrowing() {
    List<byte[]> samples = batch.stream().map(Request::payload).toList();
    Fuzzer.of("orderer proposal envelopes", samples)
        .inputs(500)
        .run(
            (bytes, random) -> {
              List<Request> mutated = new ArrayList<>(batch);
              int at = random.nextInt(mutated.size());
              mutated.set(at, new Request(batch.get(at).id(), bytes));
              // A Byzantine primary assembles the block over whatever it proposes.
              byte[] payload = backup.assemble(sequence, mutated, previous);
              return backup
                  .invalidReason(new Proposal(sequence, Digest.GENESIS, mutated, payload), previous)
                  .isEmpty();
            });
  }
}
