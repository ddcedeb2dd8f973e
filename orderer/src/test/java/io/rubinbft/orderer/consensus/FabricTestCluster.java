package io.rubinbft.orderer.consensus;

import io.rubinbft.bft.ArchiveRead;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Event;
import io.rubinbft.bft.Outbound;
import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.RequestId;
import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.host.EpochHost;
import io.rubinbft.bft.host.HostedEpoch;
import io.rubinbft.bft.message.Message;
import io.rubinbft.bft.protocol.Replica;
import io.rubinbft.bft.spi.ReplicaServices;
import io.rubinbft.bft.wire.WalRecordCodec;
import io.rubinbft.ledger.TxLocation;
import io.rubinbft.ledger.wal.WalConfig;
import io.rubinbft.orderer.block.FabricProposals;
import io.rubinbft.orderer.block.ProposalBlocks;
import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.channel.ConfigBlockReader;
import io.rubinbft.orderer.channel.InvalidConfigException;
import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.crypto.EcKeys;
import io.rubinbft.orderer.crypto.EcdsaSigner;
import io.rubinbft.orderer.crypto.Sha256;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.identity.SigningIdentity;
import io.rubinbft.orderer.memory.MemoryBudgets;
import io.rubinbft.orderer.testing.FabricFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import org.hyperledger.fabric.protos.common.Block;

/**
 * The fixture network's four consenters as bft-core replicas running the Fabric application, in one
 * thread over a lossless in-memory network, each with a real consensus WAL that the host uses as
 * the orderer does: send-now messages, then append and sync, then votes and decisions.
 */
final class FabricTestCluster implements AutoCloseable {

  static final CryptoProvider PROVIDER = CryptoProvider.preferNative();
  static final int NODES = 4;
  private static final Duration TICK = Duration.ofMillis(10);

  private record Delivery(int from, int to, Message message) {}

  final Block genesis;
  final ChannelConfig channel;
  private final Path walRoot;
  private final long walSegmentBytes;
  private final EnvelopeFactory client;
  private final Queue<Delivery> network = new ArrayDeque<>();
  private final List<EpochHost<HostedEpoch>> hosts = new ArrayList<>();
  private final List<ConsensusLog> logs = new ArrayList<>();
  private final List<List<Block>> chains = new ArrayList<>();
  private final List<List<Digest>> digests = new ArrayList<>();
  // Envelopes in each replica's chain, kept as blocks are added: summing them every tick would cost
  // the benchmark more than a block.
  private final int[] orderedCounts = new int[NODES];

  /**
   * @param walSegmentBytes segment size of every replica's consensus WAL (small to see truncation)
   */
  FabricTestCluster(Path walRoot, long walSegmentBytes) throws Exception {
    this.walRoot = walRoot;
    this.walSegmentBytes = walSegmentBytes;
    genesis =
        Block.parseFrom(Files.readAllBytes(FabricFixtures.root().resolve("bft-genesis.block")));
    channel = ConfigBlockReader.read(genesis);
    client = new EnvelopeFactory(user1(), Clock.systemUTC());
    for (int r = 0; r < NODES; r++) {
      chains.add(new ArrayList<>());
      digests.add(new ArrayList<>());
      hosts.add(null);
      logs.add(null);
    }
    for (int r = 0; r < NODES; r++) {
      open(r);
    }
  }

  /** Closes every log and rebuilds every replica from it, as after a crash of the whole cluster. */
  void crashAndRecoverAll() throws Exception {
    network.clear();
    for (int r = 0; r < NODES; r++) {
      logs.get(r).close();
    }
    for (int r = 0; r < NODES; r++) {
      open(r);
    }
  }

  /** Submits {@code count} fresh transactions to every replica, as Fabric's gateway does. */
  void submit(int count) {
    submit(transactions(count, 200));
  }

  /** {@code count} fresh signed transactions carrying {@code payloadBytes} each, as requests. */
  List<Request> transactions(int count, int payloadBytes) {
    List<Request> requests = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      EnvelopeFactory.SignedEnvelope tx = client.transaction("fixture", new byte[payloadBytes]);
      requests.add(new Request(new RequestId("tx", tx.txId()), tx.envelope().toByteArray()));
    }
    return requests;
  }

  /** Submits {@code requests} to every replica, as Fabric's gateway does. */
  void submit(List<Request> requests) {
    for (Request request : requests) {
      for (int r = 0; r < NODES; r++) {
        step(r, new Event.ClientRequest(request));
      }
    }
  }

  /** Ticks until every replica ordered {@code transactions} in total, or {@code maxTicks} pass. */
  void runUntilOrdered(int transactions, int maxTicks) {
    for (int tick = 0; tick < maxTicks && !allOrdered(transactions); tick++) {
      for (int r = 0; r < NODES; r++) {
        step(r, new Event.Tick());
      }
      for (Delivery d = network.poll(); d != null; d = network.poll()) {
        step(d.to(), new Event.Received(d.from(), d.message()));
      }
    }
  }

  /** A backup's proposal checks after {@code chain} (a replica's), as the replica runs them. */
  FabricProposals<?> backupAfter(List<Block> chain) throws Exception {
    ConfigStates configs =
        configStates(
            n ->
                n == 0
                    ? Optional.of(genesis)
                    : Optional.ofNullable(n <= chain.size() ? chain.get((int) n - 1) : null),
            chain.getLast());
    return ChainState.proposals(genesis, configs, orderedIn(chain), new Sha256(PROVIDER));
  }

  List<Block> chain(int replica) {
    return chains.get(replica);
  }

  /** The proposal digests replica {@code replica} decided, in chain order. */
  List<Digest> decidedDigests(int replica) {
    return digests.get(replica);
  }

  int orderedCount(int replica) {
    return orderedCounts[replica];
  }

  /** Replica {@code replica}'s parameters, as this version derives them from the channel. */
  ReplicaConfig replicaConfig(int replica) {
    return ChannelReplicas.replicaConfig(channel, replica, TICK, MemoryBudgets.standard());
  }

  ConsensusLog log(int replica) {
    return logs.get(replica);
  }

  @Override
  public void close() {
    logs.forEach(ConsensusLog::close);
  }

  private boolean allOrdered(int transactions) {
    for (int r = 0; r < NODES; r++) {
      if (orderedCount(r) < transactions) {
        return false;
      }
    }
    return true;
  }

  private void open(int r) throws Exception {
    long consenterId = channel.consenters().consenters().get(r).id();
    ReplicaConfig config =
        ChannelReplicas.replicaConfig(channel, r, TICK, MemoryBudgets.standard());
    List<Block> chain = chains.get(r);
    ConfigStates configs =
        configStates(
            n ->
                n == 0
                    ? Optional.of(genesis)
                    : Optional.ofNullable(n <= chain.size() ? chain.get((int) n - 1) : null),
            chain.isEmpty() ? genesis : chain.getLast());
    ReplicaServices services =
        ChannelReplicas.services(
            channel,
            ChainState.proposals(genesis, configs, orderedIn(chain), new Sha256(PROVIDER)),
            consenterId,
            enrollmentKey(consenterId),
            PROVIDER);
    ConsensusLog.Opened opened =
        ConsensusLog.open(
            new WalConfig(
                walRoot.resolve("replica-" + r), (int) (walSegmentBytes / 2), walSegmentBytes),
            new WalRecordCodec(ChannelReplicas.wireLimits(config)),
            () -> chains.get(r).size() + 1L);
    logs.set(r, opened.log());
    Replica replica =
        opened.empty()
            ? Replica.start(config, services)
            : Replica.recover(config, services, opened.records());
    hosts.set(
        r,
        new EpochHost<>(
            hosted(r, replica, opened.log()),
            decision -> execute(r, decision),
            (ended, anchor, handover) -> {
              throw new IllegalStateException("this cluster orders no config block");
            }));
  }

  /**
   * Steps replica {@code replica} through bft-core's {@link EpochHost}, the host the orderer runs
   * (sendNow, then append + sync, then votes and decisions), one event per batch.
   */
  private void step(int replica, Event event) {
    try {
      hosts.get(replica).stepAndFinish(event);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private void execute(int replica, Decision decision) {
    List<Block> chain = chains.get(replica);
    long next = chain.isEmpty() ? 1 : chain.getLast().getHeader().getNumber() + 1;
    // After recovery a decision the application already has may be handed over again.
    if (decision.sequence() >= next) {
      Block block = ProposalBlocks.signedBlock(decision);
      chain.add(block);
      orderedCounts[replica] += block.getData().getDataCount();
      digests.get(replica).add(decision.digest());
    }
  }

  /** Replica {@code r}'s one epoch: its consensus WAL and this cluster's in-memory network. */
  private HostedEpoch hosted(int r, Replica replica, ConsensusLog log) {
    return new HostedEpoch() {
      @Override
      public long number() {
        return 0;
      }

      @Override
      public Replica replica() {
        return replica;
      }

      @Override
      public void send(List<Outbound> messages) {
        FabricTestCluster.this.send(r, messages);
      }

      @Override
      public void serve(List<ArchiveRead> reads) {
        // Every replica here holds its decisions in memory: no peer is ever that far behind.
      }

      @Override
      public void append(List<WalRecord> records) {
        log.append(records);
      }

      @Override
      public void sync() {
        log.sync();
      }

      @Override
      public void close() {
        log.close();
      }

      @Override
      public boolean endsEpoch(Decision decision) {
        return false;
      }
    };
  }

  private void send(int from, List<Outbound> messages) {
    for (Outbound out : messages) {
      if (out.to().isPresent()) {
        network.add(new Delivery(from, out.to().getAsInt(), out.message()));
      } else {
        for (int to = 0; to < NODES; to++) {
          if (to != from) {
            network.add(new Delivery(from, to, out.message()));
          }
        }
      }
    }
  }

  /**
   * Replica {@code replica}'s services when it holds the genesis block only: the config in force is
   * the genesis config and nothing is ordered yet.
   */
  ReplicaServices genesisOnlyServices(int replica) throws Exception {
    long consenterId = channel.consenters().consenters().get(replica).id();
    ConfigStates configs =
        configStates(n -> n == 0 ? Optional.of(genesis) : Optional.empty(), genesis);
    return ChannelReplicas.services(
        channel,
        ChainState.proposals(genesis, configs, orderedIn(List.of()), new Sha256(PROVIDER)),
        consenterId,
        enrollmentKey(consenterId),
        PROVIDER);
  }

  /**
   * The transactions ordered in {@code chain} (blocks from 1), found by scanning it: decisions are
   * appended to it as they are executed, so no decision waits unwritten.
   */
  static OrderedTransactions orderedIn(List<Block> chain) {
    return new OrderedTransactions(
        new OrderedTransactions.Chain() {
          @Override
          public Optional<TxLocation> locate(String txId) {
            for (Block block : List.copyOf(chain)) {
              for (int i = 0; i < block.getData().getDataCount(); i++) {
                byte[] envelope = block.getData().getData(i).toByteArray();
                if (FabricRequests.ofOrdered(envelope, new Sha256(PROVIDER))
                    .id()
                    .key()
                    .equals(txId)) {
                  return Optional.of(new TxLocation(block.getHeader().getNumber(), i));
                }
              }
            }
            return Optional.empty();
          }

          @Override
          public Optional<Block> block(long number) {
            return number >= 1 && number <= chain.size()
                ? Optional.of(chain.get((int) number - 1))
                : Optional.empty();
          }
        });
  }

  /** The configs along a chain whose committed blocks are {@code blocks}, up to {@code tip}. */
  static ConfigStates configStates(ConfigStates.CommittedBlocks blocks, Block tip)
      throws InvalidConfigException {
    return new ConfigStates(
        ConfigState.factory(PROVIDER, Clock.systemUTC(), 1024, 1024), blocks, tip);
  }

  static EcdsaSigner enrollmentKey(long consenterId) throws Exception {
    Path key = FabricFixtures.orderer((int) consenterId).resolve("msp/keystore/priv_sk");
    return new EcdsaSigner(PROVIDER, new EcKeys(PROVIDER).privateKeyFromPem(Files.readString(key)));
  }

  static SigningIdentity user1() {
    return SigningIdentity.fromMspDirectory(
        FabricFixtures.root()
            .resolve("crypto/peerOrganizations/org1.example.com/users/User1@org1.example.com/msp"),
        "Org1MSP",
        PROVIDER);
  }
}
