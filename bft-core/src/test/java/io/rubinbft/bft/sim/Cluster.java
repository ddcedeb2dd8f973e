package io.rubinbft.bft.sim;

import io.rubinbft.bft.ArchiveRead;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Epoch;
import io.rubinbft.bft.Event;
import io.rubinbft.bft.Outbound;
import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.ReplicaStatus;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.RequestId;
import io.rubinbft.bft.host.EpochHost;
import io.rubinbft.bft.message.Commit;
import io.rubinbft.bft.message.Decisions;
import io.rubinbft.bft.message.Message;
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.message.ProposalBodies;
import io.rubinbft.bft.message.ProposalBody;
import io.rubinbft.bft.spi.ReplicaServices;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * N replicas, their network and storage, and their clients, in one thread, driven tick by tick from
 * one seed (docs/ARCHITECTURE.md principle 3). Every step is checked by the {@link
 * InvariantChecker}; every failure names the seed and the command that replays it.
 */
public final class Cluster {

  /** Clients resend undecided requests this often, as Fabric clients retry. */
  static final int CLIENT_RESEND_TICKS = 25;

  private final long seed;
  private final Random random;
  private final SimKeys keys;
  private final SimNetwork<Message> network;
  private final SimNode[] nodes;

  /** Each node's host, made anew for each new replica (after a restart). */
  @SuppressWarnings("unchecked")
  private final EpochHost<SimHostedEpoch>[] hosts;

  /** Node id = replica index: the one member set of this cluster. */
  private final List<Integer> everyone;

  /** What every signed statement of this cluster binds. */
  private final Epoch epoch;

  private final InvariantChecker checker;
  private final Map<RequestId, Request> submitted = new LinkedHashMap<>();
  private final Set<Integer> isolated = new HashSet<>();
  private double crashBeforeSyncRate;

  /** The low watermark of the replica being stepped, before the step (its sends follow it). */
  private long lowBeforeStep;

  private int nextRequest;

  /** Per server and requester: the archive reads served. */
  private final Map<List<Integer>, Integer> archiveReads = new HashMap<>();

  private int largestArchiveAnswer;

  /** Per server, requester and the server's status interval: request bytes of bodies sent. */
  private final Map<List<Long>, Long> bodyBytes = new HashMap<>();

  private long now;

  private Cluster(int replicas, long seed, ReplicaConfig template, Decision anchor) {
    this.seed = seed;
    this.random = new Random(seed);
    this.keys = new SimKeys(replicas, random.nextLong());
    this.network = new SimNetwork<>(replicas, new Random(random.nextLong()));
    this.checker =
        new InvariantChecker(
            replicas,
            keys,
            anchor == null ? 0 : anchor.sequence(),
            InvariantChecker.fixed(replicas));
    this.nodes = new SimNode[replicas];
    @SuppressWarnings({"unchecked", "rawtypes"}) // Java creates no arrays of a generic type
    EpochHost<SimHostedEpoch>[] created = new EpochHost[replicas];
    this.hosts = created;
    this.everyone = IntStream.range(0, replicas).boxed().toList();
    this.epoch = anchor == null ? Epoch.GENESIS : Epoch.after(anchor);
    SimApplication application = new SimApplication();
    for (int id = 0; id < replicas; id++) {
      ReplicaServices services =
          new ReplicaServices(
              keys.crypto(id),
              keys.signer(id, new Random(random.nextLong())),
              application,
              application);
      nodes[id] = new SimNode(id, template.withSelf(id), services, anchor);
    }
  }

  public static Cluster of(int replicas, long seed) {
    return new Cluster(replicas, seed, simConfig(replicas), null);
  }

  public static Cluster of(int replicas, long seed, ReplicaConfig template) {
    return new Cluster(replicas, seed, template, null);
  }

  /**
   * A cluster of an epoch that starts after {@code anchor} (a decision of an earlier epoch, whose
   * certificate nobody checks): its replicas order from the anchor's sequence + 1 on.
   */
  public static Cluster inEpoch(int replicas, long seed, Decision anchor) {
    return new Cluster(replicas, seed, simConfig(replicas), anchor);
  }

  /** Small limits so that checkpoints, watermarks and timeouts all happen in short runs. */
  public static ReplicaConfig simConfig(int replicas) {
    return new ReplicaConfig(
        replicas,
        0,
        4,
        1 << 16,
        2,
        16,
        4,
        500,
        1024,
        60,
        20,
        8,
        64,
        10_000,
        Decisions.MAX_ANSWER_BYTES);
  }

  /**
   * {@link #simConfig} with a window counted in bytes that binds before the window in sequences
   * does (bft-core/README.md "Window in bytes"): the simulator's requests are ~20 bytes and its
   * batches up to 4 of them; the window's bytes hold a full batch (1 KiB) and ~100 bytes more, so a
   * primary keeps a few proposals in flight above its stable checkpoint, checkpoints fall by bytes
   * (about every second proposal) before the K-th sequence, and two decisions are retained (the
   * digests of a window are kept beside them).
   */
  public static ReplicaConfig windowBytesConfig(int replicas) {
    ReplicaConfig sim = simConfig(replicas);
    return new ReplicaConfig(
        sim.replicas(),
        sim.self(),
        sim.batchMaxCount(),
        sim.requestMaxBytes(),
        sim.batchTimeoutTicks(),
        sim.window(),
        sim.checkpointInterval(),
        sim.poolLimit(),
        sim.requestMaxBytes(),
        sim.requestTimeoutTicks(),
        sim.viewChangeTimeoutTicks(),
        sim.statusIntervalTicks(),
        2,
        sim.decidedIdMemory(),
        sim.answerMaxBytes(),
        sim.requestMaxBytes() + 100L);
  }

  public int size() {
    return nodes.length;
  }

  /** The replay instruction printed with every failure. */
  public String replay() {
    return "seed "
        + seed
        + "; replay: ./test.sh -pl bft-core -Dtest=SimulationSweepTest -Dsim.seed="
        + seed;
  }

  public void faults(double drop, double duplicate, int maxDelay) {
    network.faults(drop, duplicate, maxDelay);
  }

  /** Crashes a replica right after it appended to its WAL but before the sync, at this rate. */
  public void storageFaults(double crashBeforeSync) {
    this.crashBeforeSyncRate = crashBeforeSync;
  }

  /** Cuts a replica off; until {@link #heal}, liveness checks leave it out. */
  public void isolate(int replica) {
    network.isolate(replica);
    isolated.add(replica);
  }

  public void cut(int from, int to) {
    network.cut(from, to);
  }

  public void heal() {
    network.heal();
    isolated.clear();
  }

  public void crash(int replica) {
    nodes[replica].crash();
  }

  public void restart(int replica) {
    SimNode node = nodes[replica];
    if (!node.up()) {
      node.restart();
      if (node.correct()) {
        checker.onRestart(replica, node.replica.status().lastDelivered());
      }
    }
  }

  public boolean isUp(int replica) {
    return nodes[replica].up();
  }

  public void makeByzantine(int replica, Set<Attack> attacks) {
    nodes[replica].byzantine =
        new Byzantine(
            replica,
            new Byzantine.Seat(replica, epoch, nodes.length),
            attacks,
            new Random(random.nextLong()),
            keys);
  }

  public ReplicaStatus status(int replica) {
    return nodes[replica].replica.status();
  }

  /** Submits {@code count} new requests from clients "client-0".. "client-2" to every replica. */
  public void submit(int count) {
    submit(count, 0);
  }

  /** As {@link #submit(int)}, each request padded with zeros to {@code size} bytes at least. */
  public void submit(int count, int size) {
    for (int i = 0; i < count; i++) {
      int number = nextRequest++;
      RequestId id = new RequestId("client-" + (number % 3), "tx-" + number);
      byte[] text = ("payload " + number).getBytes(StandardCharsets.UTF_8);
      byte[] payload = Arrays.copyOf(text, Math.max(text.length, size - id.utf8Bytes()));
      Request request = new Request(id, payload);
      submitted.put(id, request);
      for (SimNode node : nodes) {
        offer(node, request);
      }
    }
  }

  /** Every replica receives every submitted request again (a client retrying after a timeout). */
  public void resubmitAll() {
    for (Request request : submitted.values()) {
      for (SimNode node : nodes) {
        offer(node, request);
      }
    }
  }

  public void runTicks(long ticks) {
    for (long i = 0; i < ticks; i++) {
      tick();
    }
  }

  /**
   * Runs until every correct replica that is up decided every submitted request; fails with the
   * seed if that takes more than {@code maxTicks} (invariant 4, liveness).
   */
  public long runUntilAllDecided(long maxTicks) {
    long start = now;
    while (!allDecided()) {
      if (now - start >= maxTicks) {
        throw new InvariantViolation(
            "(4) liveness: "
                + undecidedSummary()
                + " still undecided after "
                + maxTicks
                + " ticks; "
                + replay());
      }
      tick();
    }
    return now - start;
  }

  /** The decision a replica's application executed at {@code sequence}, or null. */
  public Decision executedAt(int replica, long sequence) {
    return nodes[replica].executed(sequence);
  }

  /** Decided request count at a replica. */
  public int decidedAt(int replica) {
    return nodes[replica].decided.size();
  }

  private boolean allDecided() {
    for (SimNode node : nodes) {
      if (node.correct()
          && node.up()
          && !isolated.contains(node.id)
          && node.decided.size() < submitted.size()) {
        return false;
      }
    }
    return true;
  }

  private String undecidedSummary() {
    List<String> parts = new ArrayList<>();
    for (SimNode node : nodes) {
      if (node.correct() && node.up()) {
        parts.add(
            "replica "
                + node.id
                + " decided "
                + node.decided.size()
                + "/"
                + submitted.size()
                + " "
                + node.replica.status());
      }
    }
    return String.join("; ", parts);
  }

  private void tick() {
    try {
      advance();
    } catch (InvariantViolation | RuntimeException failure) {
      throw new InvariantViolation(failure + " at tick " + now + "; " + replay(), failure);
    }
  }

  private void advance() {
    now++;
    for (SimNetwork.InFlight<Message> message : network.due(now)) {
      deliver(message.from(), message.to(), message.message());
    }
    for (SimNode node : nodes) {
      if (node.up()) {
        step(node, new Event.Tick());
      }
      if (node.up() && node.byzantine != null) {
        sendAll(node, node.byzantine.onTick(now));
      }
    }
    if (now % CLIENT_RESEND_TICKS == 0) {
      resendUndecided();
    }
  }

  private void resendUndecided() {
    for (Request request : submitted.values()) {
      for (SimNode node : nodes) {
        if (node.up() && !node.decided.contains(request.id())) {
          offer(node, request);
        }
      }
    }
  }

  private void offer(SimNode node, Request request) {
    if (node.up() && (node.byzantine == null || node.byzantine.acceptsRequest(request))) {
      step(node, new Event.ClientRequest(request));
    }
  }

  private void deliver(int from, int to, Message message) {
    SimNode node = nodes[to];
    if (!node.up()) {
      return;
    }
    if (node.byzantine != null) {
      sendAll(node, node.byzantine.onReceived(message));
    }
    if (node.up()) {
      // As on the wire: view changes and new views name their proposals by digest.
      step(node, new Event.Received(from, ProposalBodies.hollowed(message)));
    }
  }

  /**
   * Steps the node's host (bft-core's {@link EpochHost}, the orderer's) with one event as a batch
   * of its own. A Byzantine replica runs correct code on state its own lies made inconsistent, so
   * it may trip its own invariant checks; it then just stops, as Byzantine replicas may. A correct
   * one fails the run.
   */
  private void step(SimNode node, Event event) {
    lowBeforeStep = node.replica.status().lowWatermark();
    try {
      hostOf(node).stepAndFinish(event);
    } catch (SimHostedEpoch.CrashedBeforeSync crash) {
      node.crash();
    } catch (IllegalStateException brokenByItsOwnLies) {
      if (node.correct()) {
        throw brokenByItsOwnLies;
      }
      node.crash();
    } catch (InterruptedException e) {
      throw new IllegalStateException("the simulator's ledger never waits", e);
    }
  }

  /** The host of the node's replica; a new one after a restart (a new replica). */
  private EpochHost<SimHostedEpoch> hostOf(SimNode node) {
    EpochHost<SimHostedEpoch> host = hosts[node.id];
    if (host == null || host.epoch().replica() != node.replica) {
      host =
          new EpochHost<>(
              new SimHostedEpoch(
                  node.durable,
                  epoch.sequence(),
                  node.replica,
                  messages -> sendAll(node, messages),
                  reads -> serve(node, reads),
                  () -> random.nextDouble() < crashBeforeSyncRate,
                  decision -> false),
              decision -> execute(node, decision),
              (ended, anchor, handover) -> {
                throw new IllegalStateException("this cluster runs one epoch");
              });
      hosts[node.id] = host;
    }
    return host;
  }

  /**
   * The most request bytes of proposal bodies replica {@code server} sent replica {@code requester}
   * in one of its status intervals so far (by the server's own clock: the answers to what a tick
   * delivers fall in the interval of the tick before).
   */
  public long mostBodyBytesInAnInterval(int server, int requester) {
    long most = 0;
    for (Map.Entry<List<Long>, Long> sent : bodyBytes.entrySet()) {
      if (sent.getKey().get(0) == server && sent.getKey().get(1) == requester) {
        most = Math.max(most, sent.getValue());
      }
    }
    return most;
  }

  /** Archive reads replica {@code server} served for replica {@code requester} so far. */
  public int archiveReads(int server, int requester) {
    return archiveReads.getOrDefault(List.of(server, requester), 0);
  }

  /** The most decisions one answer from an archive held so far. */
  public int largestArchiveAnswer() {
    return largestArchiveAnswer;
  }

  private void serve(SimNode node, List<ArchiveRead> reads) {
    for (ArchiveRead read : reads) {
      archiveReads.merge(List.of(node.id, read.replica()), 1, Integer::sum);
      List<Decision> archived = node.archived(read);
      largestArchiveAnswer = Math.max(largestArchiveAnswer, archived.size());
      if (!archived.isEmpty()) {
        send(node, read.replica(), new Decisions(archived, node.id));
      }
    }
  }

  private void execute(SimNode node, Decision decision) {
    if (node.correct()) {
      checker.onDecision(node.id, decision, everyone);
    }
    decision.proposal().requests().forEach(r -> node.decided.add(r.id()));
    if (decision.sequence() != node.lastExecuted() + 1) {
      throw new IllegalStateException(
          "replica "
              + node.id
              + " handed over "
              + decision.sequence()
              + " after "
              + node.lastExecuted());
    }
    node.ledger.add(decision);
  }

  private void sendAll(SimNode node, List<Outbound> outbounds) {
    for (Outbound outbound : outbounds) {
      if (outbound.to().isPresent()) {
        send(node, outbound.to().getAsInt(), outbound.message());
      } else {
        for (int to = 0; to < nodes.length; to++) {
          if (to != node.id) {
            send(node, to, outbound.message());
          }
        }
      }
    }
  }

  private void send(SimNode node, int to, Message message) {
    List<Outbound> actual =
        node.byzantine == null
            ? List.of(Outbound.toReplica(to, message))
            : node.byzantine.rewrite(to, message);
    for (Outbound outbound : actual) {
      if (outbound.message() instanceof Commit commit) {
        checker.onCommitEmitted(commit.sender(), commit);
      }
      if (node.correct() && outbound.message() instanceof PrePrepare prePrepare) {
        checker.onPrePrepareEmitted(prePrepare, lowBeforeStep, node.replica.status());
      }
      if (node.correct() && outbound.message() instanceof ProposalBody body) {
        long interval = (now - 1) / node.replica.config().statusIntervalTicks();
        bodyBytes.merge(
            List.of((long) node.id, (long) outbound.to().orElse(to), interval),
            body.proposal().requestBytes(),
            Long::sum);
      }
      network.send(now, node.id, outbound.to().orElse(to), outbound.message());
    }
  }
}
