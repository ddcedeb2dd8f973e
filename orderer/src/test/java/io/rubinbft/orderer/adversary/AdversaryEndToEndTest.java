package io.rubinbft.orderer.adversary;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.grpc.Grpc;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.TlsChannelCredentials;
import io.grpc.stub.StreamObserver;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.message.Commit;
import io.rubinbft.bft.message.FetchDecisions;
import io.rubinbft.bft.message.Prepare;
import io.rubinbft.net.ChannelConfig;
import io.rubinbft.net.Identity;
import io.rubinbft.orderer.e2e.ClusterUnderAttack;
import io.rubinbft.orderer.testing.SlowGrpcStream;
import io.rubinbft.orderer.tools.bootstrap.NetworkSummary;
import io.rubinbft.orderer.tools.loadgen.LoadReport;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.orderer.AtomicBroadcastGrpc;
import org.hyperledger.fabric.protos.orderer.BroadcastResponse;
import org.hyperledger.fabric.protos.orderer.DeliverResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 22's adversary suite: four real node processes (the launcher's default heaps) under attacks
 * by a Byzantine consenter that holds a real consenter's keys (its process killed, the adversary
 * speaking for it through the production cluster network or rdma-net's selector) and by a stranger
 * without keys, each while gateway-style loads order transactions on the three honest nodes.
 *
 * <p>For every attack: the load sent during it passes (everything a quorum acknowledged is
 * delivered once, in blocks with a quorum of signatures) within {@link #LOAD_DEADLINE}, the
 * recovery bound (the silent primary's included: a view change after SmartBFT's 20 s request
 * timeout); then every honest node is alive, logged no dead thread, answers {@code /healthz} 200,
 * and holds at most its heap and direct-memory budget ({@link HonestNodes}). At the end the honest
 * nodes' chains are valid and identical and hold every acknowledged transaction exactly once.
 * Progress, never speed.
 *
 * <p>Short version in the default suite (one cluster, a few transactions per attack); {@code
 * -Plong} runs the soak: the same attacks in rounds (at least one) for {@code
 * -Dadversary.soak.minutes} (10 by default) with loads of 200 transactions.
 */
class AdversaryEndToEndTest {

  private static final Logger LOG = LoggerFactory.getLogger(AdversaryEndToEndTest.class);

  /** How long a load under attack may take: the recovery bound every attack must meet. */
  static final Duration LOAD_DEADLINE = Duration.ofSeconds(90);

  private static final long HUGE = 1L << 40;

  /** How long each attack lasts at least, the load's run included. */
  private static final long ATTACK_MILLIS = Long.getLong("adversary.attack.millis", 2_500);

  private ClusterUnderAttack cluster;
  private HonestNodes honest;
  private ByzantineConsenter byzantine;
  private int impersonated;
  private Identity stolen;
  private final Random random = new Random(22);

  @RegisterExtension
  final TestExecutionExceptionHandler nodeLogsOnFailure =
      ClusterUnderAttack.logsOnFailure(() -> cluster);

  /** One attack: starts it, and stops it when the returned handle is closed. */
  private interface Attack {
    AutoCloseable start() throws Exception;
  }

  private record Named(String name, Attack attack) {}

  @AfterEach
  void stop() throws Exception {
    if (byzantine != null) {
      byzantine.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void honestNodesKeepOrderingUnderEveryAttack() throws Exception {
    List<Named> attacks = startClusterAndImpersonateTheLeader();
    for (Named attack : attacks) {
      underAttack(attack, 12, 1);
    }
    finish();
  }

  @Test
  @Tag("long")
  void soakUnderEveryAttack() throws Exception {
    long minutes = Long.getLong("adversary.soak.minutes", 10);
    long end = System.nanoTime() + TimeUnit.MINUTES.toNanos(minutes);
    List<Named> attacks = startClusterAndImpersonateTheLeader();
    int round = 0;
    do {
      round++;
      for (Named attack : attacks) {
        underAttack(attack, 200, round);
      }
    } while (System.nanoTime() < end);
    LOG.info("adversary soak: {} rounds of {} attacks", round, attacks.size());
    finish();
  }

  private List<Named> startClusterAndImpersonateTheLeader() throws Exception {
    Path dir = Files.createDirectories(Path.of("target", "multiproc")).toAbsolutePath();
    cluster = ClusterUnderAttack.start(Files.createTempDirectory(dir, "adversary-"), 10);
    honest = new HonestNodes(cluster);
    report("no attack", cluster.load(12, 300, 4, LOAD_DEADLINE));
    impersonated = cluster.indexOfConsenter(cluster.agreedLeader());
    stolen = ByzantineConsenter.keysOf(cluster.network(), impersonated);
    cluster.impersonate(impersonated);
    byzantine =
        ByzantineConsenter.start(
            cluster.network(), impersonated, ByzantineConsenter.honestLimits(stolen));
    return attacks();
  }

  private void finish() throws Exception {
    byzantine.close();
    byzantine = null;
    report("after the attacks", cluster.load(12, 300, 4, LOAD_DEADLINE));
    int checked = cluster.assertNoAcknowledgedTransactionLost();
    LOG.info("adversary: {} acknowledged transactions, none lost", checked);
    honest.assertUnharmed("at the end");
  }

  private void underAttack(Named attack, int transactions, int round) throws Exception {
    try {
      underAttackOnce(attack, transactions, round);
    } catch (AssertionError | Exception e) {
      throw new AssertionError(
          "attack '"
              + attack.name()
              + "' failed: "
              + e.getMessage()
              + "\nreplay: ./test.sh -pl orderer -am -Dtest='AdversaryEndToEndTest#"
              + "honestNodesKeepOrderingUnderEveryAttack' -Dadversary.attacks='"
              + attack.name()
              + "' -Dsurefire.failIfNoSpecifiedTests=false",
          e);
    }
  }

  private void underAttackOnce(Named attack, int transactions, int round) throws Exception {
    long started = System.nanoTime();
    LoadReport report;
    try (AutoCloseable _ = attack.attack().start()) {
      report = cluster.load(transactions, 300, 4, LOAD_DEADLINE);
      // Every attack lasts at least this long, the load's run or not.
      Thread.sleep(Math.max(0, ATTACK_MILLIS - (System.nanoTime() - started) / 1_000_000));
    }
    honest.assertUnharmed(attack.name());
    LOG.info(
        "adversary round {}: {} passed in {} ms",
        round,
        attack.name(),
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    report(attack.name(), report);
  }

  private static void report(String what, LoadReport report) {
    LOG.info("adversary: load {}:\n{}", what, report.format());
  }

  /**
   * Every attack, or those whose name contains one of the comma-separated parts of {@code
   * -Dadversary.attacks}.
   */
  private List<Named> attacks() {
    String only = System.getProperty("adversary.attacks", "");
    return everyAttack().stream()
        .filter(
            attack ->
                only.isBlank() || Arrays.stream(only.split(",")).anyMatch(attack.name()::contains))
        .toList();
  }

  private List<Named> everyAttack() {
    return List.of(
        // The impersonated node leads (in later rounds, the node leading then is impersonated
        // instead): connected and authenticated, it proposes conflicting blocks, then nothing.
        new Named("an equivocating primary, silent after it equivocated", () -> equivocating(0)),
        // The view changed: the adversary plays the leader of the later view.
        new Named("an equivocating primary of a later view", () -> equivocating(1)),
        new Named(
            "undecodable consensus messages",
            () -> byzantineFlood(() -> randomBytes(1 + random.nextInt(2_000)), 0)),
        new Named(
            "frames of channels nobody serves",
            () ->
                new Flood(
                    "unknown-channel",
                    Duration.ofMillis(1),
                    () ->
                        byzantine.sendToAllOnChannel(
                            "nochannel" + random.nextInt(1_000), 0, randomBytes(100)))),
        new Named(
            "lying epochs, a higher one each time",
            () -> {
              AtomicLong epoch = new AtomicLong(HUGE);
              Flood flood =
                  new Flood(
                      "epochs",
                      Duration.ofMillis(1),
                      () -> byzantine.sendToAll(epoch.getAndIncrement(), randomBytes(50)));
              return () -> {
                flood.close();
                // NewerEpochs logs each newer epoch it acts on: one liar's claims are not acted on.
                honest.assertNotLogged("a consenter runs epoch");
              };
            }),
        new Named(
            "status claiming height and view 2^40",
            () ->
                byzantineFlood(
                    () ->
                        byzantine.encode(
                            new io.rubinbft.bft.message.Status(HUGE, true, HUGE, byzantine.self())),
                    0)),
        new Named(
            "state-transfer requests for the whole chain",
            () ->
                byzantineFlood(
                    () ->
                        byzantine.encode(
                            new FetchDecisions(
                                1, Digest.GENESIS, Integer.MAX_VALUE, byzantine.self())),
                    0)),
        new Named(
            "state-transfer requests from height 2^40",
            () ->
                byzantineFlood(
                    () ->
                        byzantine.encode(
                            new FetchDecisions(
                                HUGE, Digest.GENESIS, Integer.MAX_VALUE, byzantine.self())),
                    0)),
        new Named(
            "prepares and commits with bad signatures",
            () -> {
              AtomicLong sequence = new AtomicLong();
              return byzantineFlood(
                  () -> {
                    long s = sequence.incrementAndGet();
                    Digest digest = new Digest(randomBytes(32));
                    return s % 2 == 0
                        ? byzantine.encode(
                            new Prepare(s % 4, s % 64, digest, byzantine.self(), randomBytes(72)))
                        : byzantine.encode(
                            new Commit(s % 4, s % 64, digest, byzantine.self(), randomBytes(72)));
                  },
                  0);
            }),
        new Named("replays of what the honest nodes sent in older views", this::replays),
        new Named(
            "messages of 16 MiB, the largest a link carries",
            () ->
                new Flood(
                    "largest",
                    Duration.ofMillis(300),
                    () -> byzantine.sendToAll(0, randomBytes((16 << 20) - 1024)))),
        new Named("malformed cluster frames", this::malformedFrames),
        new Named("a handshake announcing absurd limits", this::absurdLimits),
        new Named("withheld credit: a receiver that never reads", this::withheldCredit),
        new Named("reconnecting again and again", this::reconnects),
        new Named(
            "idle connections to every cluster port",
            () -> strangerOnEvery(Port.CLUSTER, 60, new byte[0])),
        new Named(
            "cluster handshakes that never finish",
            () -> strangerOnEvery(Port.CLUSTER, 20, Stranger.CLUSTER_HELLO_NEVER_FINISHED)),
        new Named("garbage bytes to every cluster port", () -> garbageOnEvery(Port.CLUSTER)),
        new Named(
            "idle connections and unfinished TLS handshakes to every gRPC port",
            () -> {
              Stranger stranger = strangerOnEvery(Port.GRPC, 40, new byte[0]);
              for (int index : cluster.honest()) {
                stranger.connect(port(index, Port.GRPC), 20, Stranger.TLS_HELLO_NEVER_FINISHED);
              }
              return stranger;
            }),
        new Named("garbage bytes to every gRPC port", () -> garbageOnEvery(Port.GRPC)),
        new Named("hundreds of idle connections to every gRPC port", this::manyGrpcConnections),
        new Named("slowloris on every operations port", () -> slowloris(Port.OPERATIONS)),
        new Named("slowloris on every admin port", () -> slowloris(Port.ADMIN)),
        new Named(
            "unfinished TLS handshakes to every admin port",
            () -> strangerOnEvery(Port.ADMIN, 40, Stranger.TLS_HELLO_NEVER_FINISHED)),
        new Named(
            "garbage bytes to every HTTP port",
            () -> {
              garbageOnEvery(Port.ADMIN).close();
              return garbageOnEvery(Port.OPERATIONS);
            }),
        new Named("gRPC messages larger than any channel orders", this::oversizedGrpcMessages),
        new Named("hundreds of streams on one gRPC connection", this::manyStreams),
        new Named("large gRPC messages sent slowly on many connections", this::slowLargeMessages),
        new Named("gRPC messages started and never finished", this::unfinishedGrpcMessages));
  }

  /**
   * The primary of the honest nodes' view, played by the adversary, proposes two blocks for one
   * sequence (two nodes get A, one B) and three for the next (one each, and a second to one of
   * them), with its valid signatures on each and commits and prepares that contradict each other
   * ({@link EquivocatingPrimary}); then it proposes nothing. A must be decided by all, none of the
   * others ever, and the honest nodes must leave the view (the load passing within {@link
   * #LOAD_DEADLINE} shows they order again), with the second pre-prepare counted as equivocation.
   * When the impersonated node does not lead the view (after the first equivocation's view change),
   * the adversary impersonates the leader instead ({@link #impersonateInstead}), so that the
   * primary equivocates in whatever view the cluster is in, at least {@code lowestView}.
   */
  private AutoCloseable equivocating(long lowestView) throws Exception {
    int leader = cluster.indexOfConsenter(cluster.agreedLeader());
    if (leader != impersonated) {
      impersonateInstead(leader);
    }
    EquivocatingPrimary primary =
        new EquivocatingPrimary(byzantine, cluster.client(), cluster.channel());
    Optional<io.rubinbft.bft.message.Status> led = primary.ledView();
    assertThat(led)
        .as("the honest nodes' view, led by the impersonated node %d", impersonated)
        .isPresent();
    assertThat(led.get().view()).as("the view equivocated in").isGreaterThanOrEqualTo(lowestView);
    EquivocatingPrimary.Outcome outcome =
        primary.equivocate(led.get().view(), led.get().lastDelivered());
    LOG.info(
        "adversary: equivocated in view {}; block {} decided with {} at two nodes",
        outcome.view(),
        outcome.twoAgainstOne(),
        outcome.decided());
    return () -> {
      Map<String, String> channel = Map.of("channel", cluster.channel());
      double equivocations = 0;
      for (int index : cluster.honest()) {
        assertThat(honest.sample(index, "consensus_smartbft_view_number", channel))
            .as("node %d left view %d", index, outcome.view())
            .isGreaterThan((double) outcome.view());
        assertThat(honest.sample(index, "consensus_smartbft_view_leader_id", channel))
            .as("node %d's leader", index)
            .isNotEqualTo((double) byzantine.keys().consenterId());
        equivocations +=
            honest.sample(
                index,
                "consensus_smartbft_messages_dropped_total",
                Map.of("channel", cluster.channel(), "reason", "equivocation"));
      }
      assertThat(equivocations).as("second pre-prepares dropped as equivocation").isPositive();
      Map<String, Integer> ordered = cluster.identicalChainsTxIds();
      assertThat(ordered).as("the block two nodes got").containsEntry(outcome.decided(), 1);
      assertThat(ordered)
          .as("blocks no quorum got")
          .doesNotContainKeys(outcome.neverDecided().toArray(String[]::new));
    };
  }

  /**
   * Keeps one node faulty: gives the impersonated node its honest process back (caught up), then
   * kills node {@code index} and speaks for it with its keys from now on.
   */
  private void impersonateInstead(int index) throws Exception {
    LOG.info(
        "adversary: node {} leads the view; impersonating it instead of {}", index, impersonated);
    byzantine.close();
    byzantine = null;
    cluster.restore(impersonated);
    impersonated = index;
    stolen = ByzantineConsenter.keysOf(cluster.network(), impersonated);
    cluster.impersonate(impersonated);
    byzantine =
        ByzantineConsenter.start(
            cluster.network(), impersonated, ByzantineConsenter.honestLimits(stolen));
  }

  private AutoCloseable byzantineFlood(java.util.function.Supplier<byte[]> message, long epoch) {
    return new Flood(
        "byzantine", Duration.ofMillis(1), () -> byzantine.sendToAll(epoch, message.get()));
  }

  /**
   * The honest nodes' own signed votes, status and view messages, recorded since the start (view 0,
   * before the silent primary was replaced), sent back to them in a loop.
   */
  private AutoCloseable replays() {
    List<byte[]> recorded = byzantine.recorded();
    assertThat(recorded).as("messages the honest nodes sent the impersonated node").isNotEmpty();
    AtomicInteger next = new AtomicInteger();
    return byzantineFlood(() -> recorded.get(next.getAndIncrement() % recorded.size()), 0);
  }

  /** Frames whose channel-name length is out of range, or whose epoch is negative. */
  private AutoCloseable malformedFrames() throws IOException {
    RawConsenterLinks raw = new RawConsenterLinks(ByzantineConsenter.honestLimits(stolen));
    for (int index : cluster.honest()) {
      raw.flood(
          clusterAddress(index),
          () -> {
            byte[] frame = randomBytes(64);
            if (random.nextBoolean()) {
              ByteBuffer.wrap(frame).putShort((short) 0xffff);
            } else {
              ByteBuffer.wrap(frame).putShort((short) 9).put(new byte[9]).putLong(-1);
            }
            return frame;
          });
    }
    return () -> {
      raw.close();
      double dropped = 0;
      for (int index : cluster.honest()) {
        dropped +=
            honest.sample(index, "cluster_messages_dropped_total", Map.of("reason", "malformed"));
      }
      assertThat(dropped).as("malformed frames dropped and counted").isPositive();
    };
  }

  /**
   * The impersonated node comes back announcing a largest message of 1 byte and the fewest,
   * smallest slots rdma-net allows: the honest nodes' frames for it no longer fit.
   */
  private AutoCloseable absurdLimits() throws IOException {
    byzantine.close();
    byzantine =
        ByzantineConsenter.start(
            cluster.network(), impersonated, new ChannelConfig(stolen, 5, 5, 8192, 1, 1));
    return () -> replaceByzantine(ByzantineConsenter.honestLimits(stolen));
  }

  /**
   * The impersonated node accepts the honest nodes' connections and never reads: their frames for
   * it fill its receive window and then wait on their side, within their link budget.
   */
  private AutoCloseable withheldCredit() throws IOException {
    byzantine.close();
    RawConsenterLinks raw = new RawConsenterLinks(ByzantineConsenter.honestLimits(stolen));
    raw.listenWithoutReading(clusterAddress(impersonated));
    return () -> {
      raw.close();
      replaceByzantine(ByzantineConsenter.honestLimits(stolen));
    };
  }

  /** The impersonated node's cluster network closed and started again every 300 ms. */
  private AutoCloseable reconnects() {
    return new Flood(
        "reconnects",
        Duration.ofMillis(300),
        () -> {
          replaceByzantine(ByzantineConsenter.honestLimits(stolen));
          byzantine.sendToAll(0, randomBytes(10));
        });
  }

  private void replaceByzantine(ChannelConfig limits) throws IOException {
    byzantine.close();
    byzantine = ByzantineConsenter.start(cluster.network(), impersonated, limits);
  }

  private AutoCloseable slowloris(Port port) throws IOException {
    Stranger stranger = strangerOnEvery(port, 40, new byte[] {'G'});
    Flood trickle = new Flood("slowloris", Duration.ofSeconds(1), stranger::trickle);
    return () -> {
      trickle.close();
      stranger.close();
    };
  }

  /**
   * Broadcast messages of {@link io.rubinbft.orderer.memory.MessageLimits} plus 128 KiB, beyond
   * what any channel can order, to every honest node: each is refused with RESOURCE_EXHAUSTED
   * though MaxRecvMsgSize (100 MB) would allow it.
   */
  private AutoCloseable oversizedGrpcMessages() {
    List<ManagedChannel> channels = grpcChannels();
    Envelope oversized =
        Envelope.newBuilder()
            .setPayload(
                ByteString.copyFrom(
                    new byte
                        [io.rubinbft.orderer.memory.MessageLimits.TRANSPORT_MAX_MESSAGE_BYTES
                            + (128 << 10)]))
            .build();
    Flood flood =
        new Flood(
            "oversized-grpc",
            Duration.ofMillis(500),
            () -> {
              for (ManagedChannel channel : channels) {
                assertThat(refusal(channel, oversized)).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
              }
            });
    return () -> {
      flood.close();
      channels.forEach(ManagedChannel::shutdownNow);
    };
  }

  private static Status.Code refusal(ManagedChannel channel, Envelope envelope) throws Exception {
    CompletableFuture<Status.Code> refused = new CompletableFuture<>();
    StreamObserver<Envelope> requests =
        AtomicBroadcastGrpc.newStub(channel)
            .broadcast(
                new StreamObserver<>() {
                  @Override
                  public void onNext(BroadcastResponse value) {
                    refused.complete(Status.Code.OK);
                  }

                  @Override
                  public void onError(Throwable t) {
                    refused.complete(Status.fromThrowable(t).getCode());
                  }

                  @Override
                  public void onCompleted() {
                    refused.complete(Status.Code.OK);
                  }
                });
    requests.onNext(envelope);
    return refused.get(30, TimeUnit.SECONDS);
  }

  /** 300 Deliver streams held open on one connection to every honest node. */
  private AutoCloseable manyStreams() {
    List<ManagedChannel> channels = grpcChannels();
    for (ManagedChannel channel : channels) {
      for (int i = 0; i < 300; i++) {
        // Idle Deliver streams: each holds server state until the channels shut down.
        AtomicBroadcastGrpc.newStub(channel)
            .deliver(
                new StreamObserver<DeliverResponse>() {
                  @Override
                  public void onNext(DeliverResponse value) {}

                  @Override
                  public void onError(Throwable t) {}

                  @Override
                  public void onCompleted() {}
                });
      }
    }
    return () -> channels.forEach(ManagedChannel::shutdownNow);
  }

  /**
   * To every honest node, 10 TLS connections each announcing a Broadcast message of 10 MiB (the
   * channel's AbsoluteMaxBytes) and sending 4 MiB of it, then nothing: 40 MiB in progress per node,
   * over its 34 MiB budget of messages being received. The largest give way (counted), the others
   * wait within the budget, and direct memory stays within {@link HonestNodes}' bound while the
   * load's small envelopes get through.
   */
  private AutoCloseable slowLargeMessages() throws InterruptedException {
    List<SlowGrpcStream> streams = new java.util.concurrent.CopyOnWriteArrayList<>();
    AtomicLong failures = new AtomicLong();
    Thread sender =
        Thread.ofPlatform()
            .daemon()
            .name("slow-large-messages")
            .start(
                () -> {
                  for (int connection = 0; connection < 24; connection++) {
                    for (int index : cluster.honest()) {
                      try {
                        SlowGrpcStream stream =
                            SlowGrpcStream.overTls(
                                new InetSocketAddress("127.0.0.1", node(index).broadcastPort()),
                                node(index).tlsCaCert(),
                                10 << 20);
                        streams.add(stream);
                        stream.send(4 << 20, 10_000);
                      } catch (IOException e) {
                        failures.incrementAndGet();
                      } catch (InterruptedException e) {
                        return;
                      }
                    }
                  }
                });
    return () -> {
      sender.join(60_000);
      double gaveWay = 0;
      for (int index : cluster.honest()) {
        gaveWay +=
            honest.sample(
                index, "grpc_server_messages_refused_total", Map.of("reason", "node_budget"));
      }
      for (SlowGrpcStream stream : streams) {
        stream.close();
      }
      assertThat(failures).as("connections that could not be opened").hasValue(0);
      assertThat(gaveWay)
          .as("messages in progress that gave way to the node's budget")
          .isPositive();
    };
  }

  /**
   * To every honest node, 8 TLS connections each announcing a Broadcast message of 10 MiB and
   * sending 2.5 MiB of it, then nothing: 20 MiB in progress, over half the node's 34 MiB budget of
   * messages being received, so the node cuts off the overdue ones (the grace of {@code
   * grpc.GrpcListener.MESSAGE_GRACE} plus 2.5 MiB at its minimum rate, 20 s after each started),
   * counted as {@code too_slow}, freeing what they held, while the load's envelopes get through. It
   * cuts only while more than half its budget is held (bytes nobody needs may stay up to that
   * half): so at least 2 of each node's 8 messages end (6 of 2.5 MiB are 15 MiB, under 17), and all
   * 8 when they are overdue in the same pass.
   */
  private AutoCloseable unfinishedGrpcMessages() throws IOException, InterruptedException {
    int perNode = 8;
    int mustEnd = 2;
    List<List<SlowGrpcStream>> byNode = new ArrayList<>();
    for (int index : cluster.honest()) {
      List<SlowGrpcStream> streams = new ArrayList<>();
      byNode.add(streams);
      for (int connection = 0; connection < perNode; connection++) {
        SlowGrpcStream stream =
            SlowGrpcStream.overTls(
                new InetSocketAddress("127.0.0.1", node(index).broadcastPort()),
                node(index).tlsCaCert(),
                10 << 20);
        streams.add(stream);
        stream.send(5 << 19, 10_000);
      }
    }
    return () -> {
      try {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (List<SlowGrpcStream> streams : byNode) {
          long ended = 0;
          while (true) {
            ended = 0;
            for (SlowGrpcStream stream : streams) {
              ended += stream.endedWithin(0) ? 1 : 0;
            }
            if (ended >= mustEnd || System.nanoTime() > deadline) {
              break;
            }
            Thread.sleep(100);
          }
          assertThat(ended)
              .as("unfinished messages cut off by one node (of %d)", perNode)
              .isGreaterThanOrEqualTo(mustEnd);
        }
      } finally {
        for (List<SlowGrpcStream> streams : byNode) {
          for (SlowGrpcStream stream : streams) {
            stream.close();
          }
        }
      }
      double cutOff = 0;
      for (int index : cluster.honest()) {
        cutOff +=
            honest.sample(
                index, "grpc_server_messages_refused_total", Map.of("reason", "too_slow"));
      }
      assertThat(cutOff)
          .as("messages cut off at their deadline")
          .isGreaterThanOrEqualTo(mustEnd * byNode.size());
    };
  }

  private List<ManagedChannel> grpcChannels() {
    List<ManagedChannel> channels = new ArrayList<>();
    for (int index : cluster.honest()) {
      try {
        channels.add(
            Grpc.newChannelBuilderForAddress(
                    "localhost",
                    node(index).broadcastPort(),
                    TlsChannelCredentials.newBuilder()
                        .trustManager(node(index).tlsCaCert().toFile())
                        .build())
                .maxInboundMessageSize(1 << 20)
                .build());
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }
    return channels;
  }

  private enum Port {
    CLUSTER,
    GRPC,
    ADMIN,
    OPERATIONS
  }

  /**
   * 400 connections to each honest node's gRPC port from four addresses (100 each, over the 64
   * handshaking connections an address may hold), opened while the load runs: the node closes the
   * oldest of each address's unfinished handshakes (counted), and the load's clients, which
   * handshake at once, get through.
   */
  private AutoCloseable manyGrpcConnections() throws IOException {
    Stranger stranger = strangerOnEvery(Port.GRPC, 400, new byte[0]);
    return () -> {
      stranger.close();
      double closed = 0;
      for (int index : cluster.honest()) {
        closed +=
            honest.sample(
                index,
                "grpc_server_connections_refused_total",
                Map.of("reason", "handshaking_per_address"));
      }
      assertThat(closed).as("connections closed by the caps and counted").isPositive();
    };
  }

  private Stranger strangerOnEvery(Port port, int connections, byte[] first) throws IOException {
    Stranger stranger = new Stranger();
    for (int index : cluster.honest()) {
      stranger.connect(port(index, port), connections, first);
    }
    return stranger;
  }

  private Stranger garbageOnEvery(Port port) throws IOException {
    Stranger stranger = new Stranger();
    for (int index : cluster.honest()) {
      stranger.garbage(port(index, port), 20, 4_096);
    }
    return stranger;
  }

  private int port(int index, Port port) {
    NetworkSummary.Node node = node(index);
    return switch (port) {
      case CLUSTER -> node.clusterPort();
      case GRPC -> node.broadcastPort();
      case ADMIN -> node.adminPort();
      case OPERATIONS -> node.operationsPort();
    };
  }

  private InetSocketAddress clusterAddress(int index) {
    return new InetSocketAddress(node(index).host(), node(index).clusterPort());
  }

  private NetworkSummary.Node node(int index) {
    return cluster.network().nodes().get(index);
  }

  private byte[] randomBytes(int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }
}
