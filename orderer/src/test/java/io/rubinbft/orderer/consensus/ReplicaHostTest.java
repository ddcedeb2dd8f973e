package io.rubinbft.orderer.consensus;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Refusal;
import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.message.Decisions;
import io.rubinbft.bft.message.FetchDecisions;
import io.rubinbft.bft.message.Message;
import io.rubinbft.bft.protocol.Replica;
import io.rubinbft.bft.spi.ReplicaServices;
import io.rubinbft.bft.wire.Decoded;
import io.rubinbft.bft.wire.MessageCodec;
import io.rubinbft.bft.wire.WalRecordCodec;
import io.rubinbft.ledger.BlockHashing;
import io.rubinbft.ledger.BlockStore;
import io.rubinbft.ledger.BlockStoreConfig;
import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.ledger.Durability;
import io.rubinbft.ledger.StoredBlock;
import io.rubinbft.ledger.wal.WalConfig;
import io.rubinbft.net.ChannelConfig;
import io.rubinbft.net.Identity;
import io.rubinbft.orderer.block.BlockSignatureVerifier;
import io.rubinbft.orderer.channel.Consenter;
import io.rubinbft.orderer.cluster.ClusterNetwork;
import io.rubinbft.orderer.cluster.ClusterPeersForTests;
import io.rubinbft.orderer.cluster.ClusterSettingsForTests;
import io.rubinbft.orderer.cluster.ClusterTransports;
import io.rubinbft.orderer.concurrent.WorkerGroup;
import io.rubinbft.orderer.config.ClusterTransport;
import io.rubinbft.orderer.crypto.EcKeys;
import io.rubinbft.orderer.crypto.EcdsaSigner;
import io.rubinbft.orderer.crypto.EcdsaVerifier;
import io.rubinbft.orderer.crypto.Pem;
import io.rubinbft.orderer.crypto.Sha256;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.memory.MemoryBudgets;
import io.rubinbft.orderer.memory.MessageLimits;
import io.rubinbft.orderer.memory.NodeMemory;
import io.rubinbft.orderer.testing.FabricFixtures;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import org.hyperledger.fabric.protos.common.Block;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Four replica hosts of the fixture channel in one JVM, on real parts: rdma-net over loopback TCP
 * (and, in the first test, over the shm transport's mapped files too) with the consenters' TLS
 * identities, consensus WALs, and RocksDB ledgers holding Fabric's genesis block. Blocks must reach
 * all ledgers identically, with a quorum of consenter signatures.
 */
class ReplicaHostTest {

  private static final Duration TICK = Duration.ofMillis(10);

  @TempDir Path data;

  private final List<ClusterNetwork> networks = new ArrayList<>();
  private final List<BlockStore> stores = new ArrayList<>();
  private final List<ReplicaHost> hosts = new ArrayList<>();
  private final List<ChannelLedger> ledgers = new ArrayList<>();
  private final Queue<Long> newerEpochsSeen = new ConcurrentLinkedQueue<>();
  private FabricTestCluster fixture;
  private int requestTimeoutTicks;
  // When positive, every host keeps this many decided blocks in memory for peers catching up.
  private int retainedDecisions;
  private long epoch;
  private EnvelopeFactory client;
  // When set, every host's ledger reads for peers wait for it (a slow ledger).
  private @Nullable CountDownLatch slowArchive;
  private final CountDownLatch archiveReadStarted = new CountDownLatch(1);
  // When set, every host's ledger reads for peers throw it (past the reader's per-read catch).
  private @Nullable Error archiveError;

  @AfterEach
  void stop() {
    if (slowArchive != null) {
      slowArchive.countDown();
    }
    hosts.forEach(ReplicaHost::close);
    networks.forEach(ClusterNetwork::close);
    stores.forEach(BlockStore::close);
  }

  @ParameterizedTest
  @EnumSource(names = {"TCP", "SHM"})
  void fourHostsOrderIntoTheirLedgersAndContinueWithoutOneFollower(ClusterTransport transport)
      throws Exception {
    startCluster(transport);

    submit(30, List.of(0, 1, 2, 3));
    awaitTransactions(30, List.of(0, 1, 2, 3));
    assertSameValidChains(List.of(0, 1, 2, 3));

    hosts.get(3).close();
    submit(30, List.of(0, 1, 2));
    awaitTransactions(60, List.of(0, 1, 2));
    assertSameValidChains(List.of(0, 1, 2));
  }

  @Test
  void aViewChangeReplacesAStoppedPrimary() throws Exception {
    requestTimeoutTicks = 100;
    startCluster(ClusterTransport.TCP);
    submit(10, List.of(0, 1, 2, 3));
    awaitTransactions(10, List.of(0, 1, 2, 3));

    hosts.get(0).close();
    submit(10, List.of(1, 2, 3));
    awaitTransactions(20, List.of(1, 2, 3));
    assertSameValidChains(List.of(1, 2, 3));
    assertThat(hosts.get(1).status().view()).isPositive();
  }

  /**
   * Broadcast waits for a submission's outcome without a timeout, so a host must answer every
   * submission, also those that race with its stop: each is either taken by a step or refused.
   */
  @Test
  void everySubmissionIsAnsweredWhenTheHostStopsDuringThem() throws Exception {
    startCluster(ClusterTransport.TCP);
    List<EnvelopeFactory.SignedEnvelope> txs = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      txs.add(client.transaction("fixture", new byte[100]));
    }
    // Submitted without pause until after the host stopped: some are queued when it stops.
    List<CompletableFuture<Admission>> outcomes = Collections.synchronizedList(new ArrayList<>());
    AtomicBoolean closed = new AtomicBoolean();
    Thread submitter =
        Thread.ofPlatform()
            .start(
                () -> {
                  for (int i = 0; !closed.get() || i % txs.size() != 0; i++) {
                    EnvelopeFactory.SignedEnvelope tx = txs.get(i % txs.size());
                    outcomes.add(hosts.get(0).submit(tx.txId(), tx.envelope().toByteArray()));
                  }
                });
    while (outcomes.size() < 2 * txs.size()) {
      Thread.onSpinWait();
    }
    hosts.get(0).close();
    closed.set(true);
    submitter.join();

    assertThat(outcomes).allMatch(CompletableFuture::isDone);
    assertThat(outcomes.getLast().get())
        .isInstanceOfSatisfying(
            Admission.Unavailable.class,
            unavailable -> assertThat(unavailable.reason()).contains("channel 'fixture'"));
  }

  @Test
  void framesOfOtherEpochsAndOfNonMembersNeverReachTheReplica() throws Exception {
    epoch = 5;
    startCluster(ClusterTransport.TCP, 3);
    InetSocketAddress first = networks.get(0).localAddress();
    ClusterNetwork fourth = networks.get(3);
    try (ClusterNetwork outsider = startNetwork(outsiderTls(), consenterTls())) {
      fourth.send(first, "fixture", 4, new byte[] {1});
      fourth.send(first, "fixture", 9, new byte[] {1});
      outsider.send(first, "fixture", 5, new byte[] {1});

      PeerDrops drops = hosts.get(0).drops();
      awaitCount(() -> drops.count(PeerDrops.Reason.OLDER_EPOCH), "older epoch");
      awaitCount(() -> drops.count(PeerDrops.Reason.NEWER_EPOCH), "newer epoch");
      awaitCount(() -> drops.count(PeerDrops.Reason.NOT_A_MEMBER), "not a member");
    }
    assertThat(newerEpochsSeen).as("one member's claim of epoch 9 starts no catch-up").isEmpty();

    submit(10, List.of(0, 1, 2));
    awaitTransactions(10, List.of(0, 1, 2));
    assertSameValidChains(List.of(0, 1, 2));
  }

  /**
   * A liar (a stranger the network admits, or one Byzantine member) claiming a huge epoch, or a
   * higher one each time, starts no catch-up: only an epoch that f+1 members of this epoch claim
   * (at least one correct) does, and the catch-up hook hears the newest such epoch once.
   */
  @Test
  void aNewerEpochStartsACatchUpOnlyWhenFPlusOneMembersClaimIt() throws Exception {
    epoch = 5;
    startCluster(ClusterTransport.TCP, 3);
    InetSocketAddress first = networks.get(0).localAddress();
    PeerDrops drops = hosts.get(0).drops();
    try (ClusterNetwork outsider = startNetwork(outsiderTls(), consenterTls())) {
      outsider.send(first, "fixture", 1L << 40, new byte[] {1});
      awaitCount(() -> drops.count(PeerDrops.Reason.NOT_A_MEMBER), "not a member");
    }
    ClusterNetwork liar = networks.get(3);
    for (long claimed = 1L << 40; claimed < (1L << 40) + 50; claimed++) {
      liar.send(first, "fixture", claimed, new byte[] {1});
    }
    awaitCount(() -> drops.count(PeerDrops.Reason.NEWER_EPOCH), 50, "newer epoch");
    assertThat(newerEpochsSeen).as("one liar's claims start no catch-up").isEmpty();

    networks.get(2).send(first, "fixture", 7, new byte[] {1});
    awaitCount(() -> drops.count(PeerDrops.Reason.NEWER_EPOCH), 51, "newer epoch");
    assertThat(newerEpochsSeen)
        .as("claimed by two members, one of them correct")
        .containsExactly(7L);

    submit(10, List.of(0, 1, 2));
    awaitTransactions(10, List.of(0, 1, 2));
    assertSameValidChains(List.of(0, 1, 2));
  }

  /**
   * Liars in successive rounds, each holding another member's keys (the adversary soak's lying
   * epochs): once a member's honest process sends a frame of this epoch again, its keys no longer
   * back the lie, so the next round's liar alone starts no catch-up; two members that claim an
   * epoch at the same time still do.
   */
  @Test
  void aMembersFrameOfThisEpochWithdrawsTheNewerEpochItClaimed() throws Exception {
    epoch = 5;
    startCluster(ClusterTransport.TCP, 3);
    InetSocketAddress first = networks.get(0).localAddress();
    PeerDrops drops = hosts.get(0).drops();

    networks.get(3).send(first, "fixture", 1L << 40, new byte[] {1});
    awaitCount(() -> drops.count(PeerDrops.Reason.NEWER_EPOCH), 1, "newer epoch");
    // Consenter 3 restored to an honest process: a frame of this epoch (undecodable here).
    networks.get(3).send(first, "fixture", epoch, new byte[] {1});
    awaitCount(() -> drops.count(PeerDrops.Reason.UNDECODABLE), 1, "undecodable");
    networks.get(2).send(first, "fixture", (1L << 40) + 1, new byte[] {1});
    awaitCount(() -> drops.count(PeerDrops.Reason.NEWER_EPOCH), 2, "newer epoch");
    assertThat(newerEpochsSeen)
        .as("two rounds' liars, one member each, at no time two members")
        .isEmpty();

    networks.get(3).send(first, "fixture", 7, new byte[] {1});
    awaitCount(() -> drops.count(PeerDrops.Reason.NEWER_EPOCH), 3, "newer epoch");
    networks.get(2).send(first, "fixture", 7, new byte[] {1});
    awaitCount(() -> drops.count(PeerDrops.Reason.NEWER_EPOCH), 4, "newer epoch");
    assertThat(newerEpochsSeen).as("claimed by two members at once").containsExactly(7L);
  }

  /**
   * A state-transfer answer from the decisions a replica holds in memory is cut at the same bytes
   * as one read from the ledger (half a peer's link and input budget): a larger one, near the end
   * of a catch-up, would be pushed out of the link or refused by the asker's input queue, and the
   * asker would wait out its fetch deadline and distrust a correct source.
   */
  @Test
  void anAnswerFromMemoryIsCutAsOneFromTheLedger() throws Exception {
    // The fixture's 10 MB blocks keep one decision in memory (the window's bytes hold one block at
    // the cap); an answer from memory is cut only when it could hold more.
    retainedDecisions = 4;
    startCluster(ClusterTransport.TCP, 3);
    Queue<Answer> answers = answersTo(3);
    // As many blocks as the replica keeps in memory, each larger than an answer's bytes beyond its
    // first block: an answer cut only at bft-core's 4 MiB would hold them all.
    int retained = hosts.get(0).epoch().replica().config().retainedDecisions();
    assertThat(retained).as("blocks kept in memory").isGreaterThanOrEqualTo(2);
    long answerBytes = MessageLimits.answerBytes(MemoryBudgets.standard());
    int blockBytes = (int) answerBytes + (32 << 10);
    assertThat((long) retained * blockBytes).isLessThan(MessageLimits.DECISIONS_ANSWER_BYTES);
    for (int i = 0; i < retained; i++) {
      submitLarge(blockBytes);
    }
    awaitHeight(List.of(0, 1, 2), retained + 1);

    fetchFrom(0, 1);

    Answer answer = awaitAnswer(answers);
    assertThat(answer.decisions().decisions()).isNotEmpty();
    assertThat(answer.decisions().decisions().getFirst().sequence()).isEqualTo(1);
    long decisionBytes = answer.decisions().decisions().stream().mapToLong(Decisions::bytes).sum();
    assertThat(decisionBytes - Decisions.bytes(answer.decisions().decisions().getFirst()))
        .isLessThanOrEqualTo(answerBytes);
    assertThat((long) answer.frameBytes()).isLessThan(MemoryBudgets.standard().peerLinkBytes());
  }

  /**
   * A peer's reads of old decisions from the ledger run off the replica thread: while one is held
   * up (a slow ledger), the replica keeps ordering, and the answer goes out when the read ends.
   */
  @Test
  void aSlowLedgerReadForACatchingUpPeerHoldsUpNoOrdering() throws Exception {
    slowArchive = new CountDownLatch(1);
    startCluster(ClusterTransport.TCP, 3);
    Queue<Answer> answers = answersTo(3);
    int retained = hosts.get(0).epoch().replica().config().retainedDecisions();
    while (ledgers.get(0).height() <= retained + 2) {
      submitLarge(100);
    }
    awaitHeight(List.of(0, 1, 2), ledgers.get(0).height());
    int ordered = transactions(ledgers.get(0));

    fetchFrom(0, 1);
    assertThat(archiveReadStarted.await(30, TimeUnit.SECONDS))
        .as("host 0 reads its ledger for the peer")
        .isTrue();

    for (int i = 0; i < 10; i++) {
      submitToThree(100);
    }
    awaitTransactions(ordered + 10, List.of(0, 1, 2));
    assertThat(answers).as("no answer while the read is held up").isEmpty();

    slowArchive.countDown();
    Answer answer = awaitAnswer(answers);
    assertThat(answer.decisions().decisions().getFirst().sequence()).isEqualTo(1);
    assertSameValidChains(List.of(0, 1, 2));
  }

  /**
   * A worker the channel needs (here the archive reader, ended by an {@link Error} from its ledger
   * read) stops the replica: its failure names the worker, its owner is told, so {@code /healthz}
   * reports it and the node restarts the channel. Before the workers of a channel were one group,
   * the reader's thread died unnoticed and the replica ran on.
   */
  @Test
  void aStoppedArchiveReaderStopsTheReplicaAndSaysWhy() throws Exception {
    archiveError = new AssertionError("a broken invariant in the archive");
    startCluster(ClusterTransport.TCP, 3);
    CompletableFuture<Void> told = new CompletableFuture<>();
    hosts.get(0).onFailure(() -> told.complete(null));
    int retained = hosts.get(0).epoch().replica().config().retainedDecisions();
    while (ledgers.get(0).height() <= retained + 2) {
      submitLarge(100);
    }
    assertThat(hosts.get(0).failure()).isEmpty();

    fetchFrom(0, 1);

    told.get(30, TimeUnit.SECONDS);
    assertThat(hosts.get(0).failure())
        .hasValueSatisfying(
            reason ->
                assertThat(reason)
                    .isEqualTo(
                        "replica stopped: java.lang.IllegalStateException: archive reader stopped:"
                            + " java.lang.AssertionError: a broken invariant in the archive"));
    assertThat(hosts.get(1).failure()).isEmpty();
  }

  private record Answer(Decisions decisions, int frameBytes) {}

  /** The state-transfer answers that reach consenter {@code r}'s network (no host runs there). */
  private Queue<Answer> answersTo(int r) {
    Queue<Answer> answers = new ConcurrentLinkedQueue<>();
    MessageCodec codec = hosts.getFirst().epoch().codec();
    networks
        .get(r)
        .register(
            "fixture",
            (peer, frameEpoch, bytes) -> {
              if (codec.decode(bytes) instanceof Decoded.Valid<Message>(Decisions decisions)) {
                answers.add(new Answer(decisions, bytes.length));
              }
            });
    return answers;
  }

  /** Consenter 3 asks host {@code r} for decisions from {@code from} on, as a replica behind. */
  private void fetchFrom(int r, long from) {
    MessageCodec codec = hosts.getFirst().epoch().codec();
    networks
        .get(3)
        .send(
            networks.get(r).localAddress(),
            "fixture",
            epoch,
            codec.encode(new FetchDecisions(from, Digest.GENESIS, Decisions.MAX_COUNT, 3)));
  }

  private static Answer awaitAnswer(Queue<Answer> answers) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (answers.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(answers).as("state-transfer answers").isNotEmpty();
    return answers.peek();
  }

  /** One transaction of {@code bytes} bytes to hosts 0-2, ordered before this returns. */
  private void submitLarge(int bytes) throws Exception {
    long height = ledgers.get(0).height();
    submitToThree(bytes);
    ledgers.get(0).awaitHeight(height + 1, Duration.ofSeconds(30));
  }

  /**
   * One transaction of {@code bytes} bytes to hosts 0-2, each taking it or, when the others ordered
   * it before it arrived, refusing it as a duplicate.
   */
  private void submitToThree(int bytes) throws Exception {
    EnvelopeFactory.SignedEnvelope tx = client.transaction("fixture", new byte[bytes]);
    for (int r = 0; r < 3; r++) {
      Admission outcome =
          hosts.get(r).submit(tx.txId(), tx.envelope().toByteArray()).get(30, TimeUnit.SECONDS);
      if (!(outcome instanceof Admission.Refused(Refusal.Duplicate duplicate))) {
        assertThat(outcome).isInstanceOf(Admission.Admitted.class);
      }
    }
  }

  private void awaitHeight(List<Integer> replicas, long height) throws InterruptedException {
    for (int r : replicas) {
      assertThat(ledgers.get(r).awaitHeight(height, Duration.ofSeconds(60)))
          .as("ledger %d reaches height %d", r, height)
          .isTrue();
    }
  }

  private static void awaitCount(LongSupplier count, String what) throws InterruptedException {
    awaitCount(count, 1, what);
  }

  private static void awaitCount(LongSupplier count, long expected, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (count.getAsLong() < expected && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(count.getAsLong()).as("frames dropped: %s", what).isEqualTo(expected);
  }

  private void startCluster(ClusterTransport transport) throws Exception {
    startCluster(transport, FabricTestCluster.NODES);
  }

  /** Every consenter's network, and the hosts of the first {@code hostCount} of them. */
  private void startCluster(ClusterTransport transport, int hostCount) throws Exception {
    fixture = new FabricTestCluster(data.resolve("unused"), 64L << 20);
    fixture.close();
    client = new EnvelopeFactory(FabricTestCluster.user1(), Clock.systemUTC());
    List<Consenter> consenters = fixture.channel.consenters().consenters();
    List<X509Certificate> tls = consenters.stream().map(Consenter::serverTlsCertificate).toList();
    for (int r = 0; r < FabricTestCluster.NODES; r++) {
      Path tlsDir = FabricFixtures.orderer((int) consenters.get(r).id()).resolve("tls");
      Identity identity = new Identity(tls.get(r), Pem.privateKey(tlsDir.resolve("server.key")));
      ChannelConfig channels = ChannelConfig.defaults(identity);
      networks.add(
          ClusterNetwork.start(
              ClusterTransports.open(
                  ClusterSettingsForTests.of(transport, data.resolve("shm")), channels),
              channels,
              new InetSocketAddress("127.0.0.1", 0),
              ClusterPeersForTests.anyOf(accepted(tls))));
    }
    ReplicaDirectory directory =
        new ReplicaDirectory(fixture.channel.consenters(), i -> networks.get(i).localAddress());
    for (int r = 0; r < hostCount; r++) {
      hosts.add(startHost(r, directory));
    }
  }

  /** The consenters' TLS certificates and an outsider's, which the network admits. */
  private static List<X509Certificate> accepted(List<X509Certificate> consenters) {
    List<X509Certificate> accepted = new ArrayList<>(consenters);
    accepted.add(outsiderTls().certificate());
    return accepted;
  }

  /** The orderer admin's TLS identity: a certificate of the orderer org, no consenter's. */
  private static Identity outsiderTls() {
    Path tls = FabricFixtures.ordererOrg().resolve("users/Admin@example.com/tls");
    return new Identity(
        Pem.certificates(tls.resolve("client.crt")).getFirst(),
        Pem.privateKey(tls.resolve("client.key")));
  }

  private List<X509Certificate> consenterTls() {
    return fixture.channel.consenters().consenters().stream()
        .map(Consenter::serverTlsCertificate)
        .toList();
  }

  private ClusterNetwork startNetwork(Identity identity, List<X509Certificate> peers)
      throws Exception {
    ChannelConfig config = ChannelConfig.defaults(identity);
    return ClusterNetwork.start(
        ClusterTransports.open(
            ClusterSettingsForTests.of(ClusterTransport.TCP, data.resolve("shm")), config),
        config,
        new InetSocketAddress("127.0.0.1", 0),
        ClusterPeersForTests.anyOf(peers));
  }

  private ReplicaHost startHost(int r, ReplicaDirectory directory) throws Exception {
    BlockStore store = BlockStore.open(BlockStoreConfig.defaults(data.resolve("ledger-" + r)));
    stores.add(store);
    ChannelLedger ledger = store.createChannel("fixture");
    ledger.append(fixture.genesis.toByteArray(), Durability.SYNCED);
    ledgers.add(ledger);
    long consenterId = fixture.channel.consenters().consenters().get(r).id();
    ReplicaConfig config =
        ChannelReplicas.replicaConfig(fixture.channel, r, TICK, MemoryBudgets.standard());
    config = forTest(config, requestTimeoutTicks, retainedDecisions);
    ConsensusLog.Opened log =
        ConsensusLog.open(
            WalConfig.defaults(data.resolve("wal-" + r)),
            new WalRecordCodec(ChannelReplicas.wireLimits(config)),
            ledger::height);
    EcdsaSigner key = FabricTestCluster.enrollmentKey(consenterId);
    OrderedTransactions ordered = new OrderedTransactions(ledger);
    ReplicaServices services =
        ChannelReplicas.services(
            fixture.channel,
            ChainState.proposals(
                fixture.genesis,
                FabricTestCluster.configStates(
                    n -> ledger.block(n).map(StoredBlock::block), fixture.genesis),
                ordered,
                new Sha256(FabricTestCluster.PROVIDER)),
            consenterId,
            key,
            FabricTestCluster.PROVIDER);
    Replica replica = Replica.start(config, services);
    LedgerDecisionArchive ledgerArchive =
        new LedgerDecisionArchive(
            ledger,
            fixture.channel.consenters(),
            services.crypto(),
            new Sha256(FabricTestCluster.PROVIDER));
    DecisionArchive archive = slowArchive == null ? ledgerArchive : slowly(ledgerArchive);
    Error readError = archiveError;
    if (readError != null) {
      archive =
          read -> {
            throw readError;
          };
    }
    EpochReplica genesisEpoch =
        new EpochReplica(
            epoch,
            fixture.channel,
            r,
            replica,
            log.log(),
            new MessageCodec(ChannelReplicas.wireLimits(config)),
            directory,
            archive);
    return new ReplicaHost(
        genesisEpoch,
        networks.get(r),
        ledger,
        ordered,
        (next, anchor, handover) -> {
          throw new IllegalStateException("this test orders no config block");
        },
        newerEpochsSeen::add,
        () -> {},
        () -> {
          throw new IllegalStateException("this test orders no config block");
        },
        TICK,
        NodeMemory.standard(),
        new WorkerGroup());
  }

  /** {@code archive}, each read held up until {@link #slowArchive} opens. */
  private DecisionArchive slowly(DecisionArchive archive) {
    CountDownLatch gate = Objects.requireNonNull(slowArchive);
    return read -> {
      archiveReadStarted.countDown();
      try {
        gate.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("archive read interrupted", e);
      }
      return archive.decisions(read);
    };
  }

  /**
   * {@code c} with the test's settings: the fixture's 20 s SmartBFT timeouts shortened to {@code
   * timeoutTicks} so a test sees a view change quickly (when positive), and {@code retained}
   * decided blocks kept in memory for peers catching up (when positive).
   */
  private static ReplicaConfig forTest(ReplicaConfig c, int timeoutTicks, int retained) {
    int timeout = timeoutTicks > 0 ? timeoutTicks : c.requestTimeoutTicks();
    int viewChange = timeoutTicks > 0 ? timeoutTicks : c.viewChangeTimeoutTicks();
    int status =
        timeoutTicks > 0
            ? Math.min(c.statusIntervalTicks(), timeoutTicks)
            : c.statusIntervalTicks();
    return new ReplicaConfig(
            c.replicas(),
            c.self(),
            c.batchMaxCount(),
            c.batchMaxBytes(),
            c.batchTimeoutTicks(),
            c.window(),
            c.checkpointInterval(),
            c.poolLimit(),
            c.requestMaxBytes(),
            timeout,
            viewChange,
            status,
            retained > 0 ? retained : c.retainedDecisions(),
            c.decidedIdMemory(),
            c.answerMaxBytes(),
            c.windowBytes())
        .withCutSpacingTicks(c.cutSpacingTicks());
  }

  private void submit(int count, List<Integer> to) throws Exception {
    for (int i = 0; i < count; i++) {
      EnvelopeFactory.SignedEnvelope tx = client.transaction("fixture", new byte[300]);
      List<CompletableFuture<Admission>> outcomes = new ArrayList<>();
      for (int r : to) {
        outcomes.add(hosts.get(r).submit(tx.txId(), tx.envelope().toByteArray()));
      }
      for (CompletableFuture<Admission> outcome : outcomes) {
        assertThat(outcome.get(30, TimeUnit.SECONDS)).isInstanceOf(Admission.Admitted.class);
      }
    }
  }

  private void awaitTransactions(int count, List<Integer> replicas) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    for (int r : replicas) {
      while (transactions(ledgers.get(r)) < count && System.nanoTime() < deadline) {
        ledgers.get(r).awaitHeight(ledgers.get(r).height() + 1, Duration.ofMillis(200));
      }
      assertThat(transactions(ledgers.get(r))).as("transactions in ledger %d", r).isEqualTo(count);
    }
  }

  private static int transactions(ChannelLedger ledger) {
    int total = 0;
    for (long n = 1; n < ledger.height(); n++) {
      total += ledger.block(n).orElseThrow().block().getData().getDataCount();
    }
    return total;
  }

  private void assertSameValidChains(List<Integer> replicas) {
    BlockSignatureVerifier signatures =
        new BlockSignatureVerifier(
            fixture.channel.consenters(),
            new EcKeys(FabricTestCluster.PROVIDER),
            new EcdsaVerifier(FabricTestCluster.PROVIDER));
    ChannelLedger reference = ledgers.get(replicas.getFirst());
    for (int r : replicas) {
      ChannelLedger ledger = ledgers.get(r);
      assertThat(ledger.height()).isEqualTo(reference.height());
      for (long n = 1; n < ledger.height(); n++) {
        Block block = ledger.block(n).orElseThrow().block();
        Block previous = ledger.block(n - 1).orElseThrow().block();
        assertThat(block.getHeader().getPreviousHash().toByteArray())
            .isEqualTo(BlockHashing.headerHash(previous.getHeader()));
        assertThat(block.getHeader())
            .isEqualTo(reference.block(n).orElseThrow().block().getHeader());
        assertThat(signatures.check(block.getHeader(), block.getMetadata()).invalidReason())
            .isEmpty();
      }
    }
  }
}
