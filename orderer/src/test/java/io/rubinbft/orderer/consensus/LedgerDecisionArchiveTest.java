package io.rubinbft.orderer.consensus;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.ArchiveRead;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Effects;
import io.rubinbft.bft.Event;
import io.rubinbft.bft.Outbound;
import io.rubinbft.bft.message.Decisions;
import io.rubinbft.bft.message.FetchDecisions;
import io.rubinbft.bft.message.Status;
import io.rubinbft.bft.protocol.Replica;
import io.rubinbft.bft.spi.ReplicaServices;
import io.rubinbft.ledger.BlockStore;
import io.rubinbft.ledger.BlockStoreConfig;
import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.ledger.Durability;
import io.rubinbft.orderer.block.ProposalBlocks;
import io.rubinbft.orderer.crypto.Sha256;
import io.rubinbft.orderer.memory.MemoryBudgets;
import io.rubinbft.orderer.memory.MessageLimits;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.hyperledger.fabric.protos.common.Block;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Decisions rebuilt from a ledger that four real replicas wrote are what those replicas decided
 * (the same proposal digests, or a replica that caught up from them could not chain to the next
 * proposal), and a fresh replica (the fixture's fourth consenter, with its real Fabric crypto)
 * accepts every one through state transfer, checking chain, digests and the consenters' signatures
 * itself.
 */
class LedgerDecisionArchiveTest {

  private static final int FRESH = 3;

  /** What the fresh replica's host cuts its answers at, from memory or from the ledger. */
  private static final long ANSWER_BYTES = MessageLimits.answerBytes(MemoryBudgets.standard());

  @TempDir Path data;

  @Test
  void aFreshReplicaAcceptsEveryDecisionRebuiltFromTheLedger() throws Exception {
    try (FabricTestCluster cluster = new FabricTestCluster(data.resolve("wal"), 64L << 20);
        BlockStore store = BlockStore.open(BlockStoreConfig.defaults(data.resolve("ledger")))) {
      cluster.submit(40);
      cluster.runUntilOrdered(40, 4_000);
      List<Block> chain = cluster.chain(0);
      assertThat(chain).hasSizeGreaterThan(1);
      ChannelLedger ledger = store.createChannel("fixture");
      ledger.append(cluster.genesis.toByteArray(), Durability.SYNCED);
      for (Block block : chain) {
        ledger.append(block.toByteArray(), Durability.SYNCED);
      }
      ReplicaServices services = cluster.genesisOnlyServices(FRESH);
      LedgerDecisionArchive archive =
          new LedgerDecisionArchive(
              ledger,
              cluster.channel.consenters(),
              services.crypto(),
              new Sha256(FabricTestCluster.PROVIDER));
      Replica fresh =
          Replica.start(
              ChannelReplicas.replicaConfig(
                  cluster.channel, FRESH, Duration.ofMillis(10), MemoryBudgets.standard()),
              services);

      // Answers are cut by bytes, not by the fixture channel's small window (its 10 MB batches);
      // after an answer that moved it on, the fresh replica asks for the next at once.
      List<Decision> served = new ArrayList<>();
      List<Decision> applied = new ArrayList<>();
      FetchDecisions fetch =
          fetchIn(fresh.step(new Event.Received(0, new Status(0, true, chain.size(), 0))));
      while (true) {
        List<Decision> answer =
            archive.decisions(
                new ArchiveRead(
                    FRESH, fetch.from(), fetch.previous(), fetch.maxCount(), ANSWER_BYTES));
        assertThat(answer).hasSizeBetween(1, fetch.maxCount());
        served.addAll(answer);
        Effects effects = fresh.step(new Event.Received(0, new Decisions(answer, 0)));
        applied.addAll(effects.decisions());
        if (fresh.status().lastDelivered() >= chain.size()) {
          break;
        }
        fetch = fetchIn(effects);
      }
      assertThat(fetch.maxCount()).isEqualTo(Decisions.MAX_COUNT);

      assertThat(digests(served)).isEqualTo(cluster.decidedDigests(0));
      assertThat(digests(applied)).isEqualTo(digests(served));
      assertThat(fresh.status().drops()).isEmpty();
      assertThat(served.stream().map(ProposalBlocks::signedBlock).toList()).isEqualTo(chain);

      // From the middle, chained to the digest the asker holds, the same decisions again.
      List<Decision> fromSecond =
          archive.decisions(
              new ArchiveRead(FRESH, 2, served.getFirst().digest(), chain.size(), ANSWER_BYTES));
      assertThat(digests(fromSecond)).isEqualTo(digests(served.subList(1, served.size())));

      // An answer stops after its byte limit, with at least one block, each chained as asked.
      long oneDecision = Decisions.bytes(served.get(1));
      List<Decision> chunk =
          archive.decisions(
              new ArchiveRead(FRESH, 2, served.getFirst().digest(), chain.size(), oneDecision));
      assertThat(chain).hasSizeGreaterThan(3);
      assertThat(chunk).hasSizeBetween(1, 2);
      assertThat(digests(chunk)).isEqualTo(digests(served.subList(1, 1 + chunk.size())));
      assertThat(
              archive.decisions(
                  new ArchiveRead(
                      FRESH, chain.size() + 1, served.getLast().digest(), 8, ANSWER_BYTES)))
          .isEmpty();

      // An epoch anchor without its file is rebuilt by chaining the ledger from block 1.
      Decision anchor = EpochAnchors.read(data.resolve("no-anchor"), chain.size(), archive);
      assertThat(anchor.digest()).isEqualTo(served.getLast().digest());
    }
  }

  private static List<Digest> digests(List<Decision> decisions) {
    return decisions.stream().map(Decision::digest).toList();
  }

  private static FetchDecisions fetchIn(Effects effects) {
    return effects.sendNow().stream()
        .map(Outbound::message)
        .filter(FetchDecisions.class::isInstance)
        .map(FetchDecisions.class::cast)
        .findFirst()
        .orElseThrow(() -> new AssertionError("the fresh replica fetched nothing: " + effects));
  }
}
