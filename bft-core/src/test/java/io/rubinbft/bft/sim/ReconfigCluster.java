package io.rubinbft.bft.sim;

import io.rubinbft.bft.ArchiveRead;
import io.rubinbft.bft.CommitSignature;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Epoch;
import io.rubinbft.bft.Event;
import io.rubinbft.bft.Handover;
import io.rubinbft.bft.Outbound;
import io.rubinbft.bft.Quorums;
import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.ReplicaStatus;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.RequestId;
import io.rubinbft.bft.host.EpochHost;
import io.rubinbft.bft.host.FrameCheck;
import io.rubinbft.bft.host.HostApplication;
import io.rubinbft.bft.message.Commit;
import io.rubinbft.bft.message.Decisions;
import io.rubinbft.bft.message.Message;
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.message.ProposalBodies;
import io.rubinbft.bft.protocol.Replica;
import io.rubinbft.bft.spi.ReplicaServices;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * Nodes with stable ids and keys whose member set changes while clients submit, each hosted by the
 * production host, bft-core's {@link EpochHost} (the orderer's {@code ReplicaHost} runs the same):
 * membership changes go ALONE in their proposal; a host that executes one ends its epoch there (the
 * old replica's handover, a new WAL, a new replica of the new member set, or none if removed);
 * messages travel framed with their epoch and pass {@link FrameCheck}: an older epoch's are
 * dropped, and a newer epoch's make the node catch up by copying decisions from the sender's
 * ledger, checking each certificate against the member set of its epoch; a view change that stalls
 * ({@link io.rubinbft.bft.host.StalledViewChange}) makes it pull too. This class provides the
 * host's ports (network, WAL, ledger, the next epoch's replica) from the simulator's parts: {@link
 * SimNode}s, {@link SimNetwork}, {@link SimKeys} and the {@link InvariantChecker} over {@link
 * EpochHistory}; one seed drives everything.
 */
public final class ReconfigCluster {

  /** A Byzantine node whose own lies broke its replica restarts this much later. */
  private static final int BYZANTINE_RESTART_TICKS = 30;

  private final long seed;
  private final Random random;
  private final SimKeys keys;
  private final SimNetwork<Framed> network;
  private final SimNode[] nodes;

  /** Each node's host while it runs a replica; null while down, not (or no longer) a member. */
  private final List<EpochHost<SimHostedEpoch>> hosts;

  private final SimEpoch[] epochs;
  private final boolean[] down;

  private final EpochHistory history;
  private final InvariantChecker checker;
  private final Map<RequestId, Request> submitted = new LinkedHashMap<>();
  private final Set<Integer> isolated = new HashSet<>();
  private final Map<String, Long> hostDrops = new TreeMap<>();
  private final Map<Integer, Rogue> rogues = new HashMap<>();
  private final Set<Integer> roguesActive = new HashSet<>();
  private final Map<Integer, Long> restartAt = new HashMap<>();
  private double crashBeforeSyncRate;
  private int storageFaultDownTicks;
  private int nextRequest;
  private int nextChange;
  private int switchesProposedByByzantine;
  private int pullsAfterStalledViewChanges;

  /** The low watermark of the replica being stepped, before the step (its sends follow it). */
  private long lowBeforeStep;

  private long now;

  private ReconfigCluster(int members, int nodeCount, long seed) {
    this.seed = seed;
    this.random = new Random(seed);
    this.keys = new SimKeys(nodeCount, random.nextLong());
    this.network = new SimNetwork<>(nodeCount, new Random(random.nextLong()));
    List<Integer> genesis = IntStream.range(0, members).boxed().toList();
    this.history = new EpochHistory(genesis);
    this.checker = new InvariantChecker(nodeCount, keys, 0, history);
    this.nodes = new SimNode[nodeCount];
    this.epochs = new SimEpoch[nodeCount];
    this.down = new boolean[nodeCount];
    this.hosts = new ArrayList<>();
    for (int id = 0; id < nodeCount; id++) {
      epochs[id] = SimEpoch.genesis(genesis);
      nodes[id] =
          id < members
              ? new SimNode(id, config(genesis, id), services(id, genesis), null)
              : new SimNode(id);
      hosts.add(id < members ? host(id) : null);
    }
  }

  /** {@code nodeCount} nodes, the first {@code members} of them the genesis epoch's members. */
  public static ReconfigCluster of(int members, int nodeCount, long seed) {
    return new ReconfigCluster(members, nodeCount, seed);
  }

  public void faults(double drop, double duplicate, int maxDelay) {
    network.faults(drop, duplicate, maxDelay);
  }

  /**
   * A node crashes right after it appended to its WAL but before the sync, at this rate (losing
   * that step's records and messages), and restarts {@code downTicks} later.
   */
  public void storageFaults(double crashBeforeSync, int downTicks) {
    this.crashBeforeSyncRate = crashBeforeSync;
    this.storageFaultDownTicks = downTicks;
  }

  /** Cuts a node off; until {@link #heal}, liveness checks leave it out. */
  public void isolate(int node) {
    network.isolate(node);
    isolated.add(node);
  }

  public void heal() {
    network.heal();
    isolated.clear();
  }

  /** The node stops; its WAL and ledger survive. */
  public void crash(int node) {
    down[node] = true;
    nodes[node].crash();
    hosts.set(node, null);
  }

  /** The node starts again in the epoch it was in, recovering its replica if it is a member. */
  public void restart(int node) {
    if (down[node]) {
      down[node] = false;
      if (epochs[node].hasMember(node)) {
        try {
          nodes[node].restart();
          hosts.set(node, host(node));
        } catch (IllegalStateException brokenByItsOwnLies) {
          stopByzantine(node, brokenByItsOwnLies);
        }
      }
    }
  }

  /** Once removed, {@code node} turns Byzantine ({@link Rogue}) instead of stopping. */
  public void turnsByzantineWhenRemoved(int node) {
    rogues.put(node, new Rogue(node, new Random(random.nextLong()), keys));
  }

  /**
   * {@code node} is Byzantine from now on ({@link Byzantine}, {@code attacks}) in every epoch it is
   * a member of; no epoch may hold more than f Byzantine members (checked here and at every
   * change).
   */
  public void makeByzantine(int node, Set<Attack> attacks) {
    SimEpoch epoch = epochs[node];
    Epoch signed = epoch.anchor() == null ? Epoch.GENESIS : Epoch.after(epoch.anchor());
    Byzantine.Seat seat = new Byzantine.Seat(epoch.indexOf(node), signed, epoch.members().size());
    nodes[node].byzantine = new Byzantine(node, seat, attacks, new Random(random.nextLong()), keys);
    checkByzantineBudget(history.newest());
  }

  /** Submits {@code count} new requests from clients "client-0".. "client-2" to every node. */
  public void submit(int count) {
    for (int i = 0; i < count; i++) {
      int number = nextRequest++;
      RequestId id = new RequestId("client-" + (number % 3), "tx-" + number);
      submit(new Request(id, ("payload " + number).getBytes(StandardCharsets.UTF_8)));
    }
  }

  /** An administrator asks every node to change the member set to {@code members}. */
  public void changeMembers(List<Integer> members) {
    checkByzantineBudget(members);
    submit(MembershipApplication.change("change-" + nextChange++, members));
  }

  private void checkByzantineBudget(List<Integer> members) {
    long byzantine = members.stream().filter(id -> !nodes[id].correct()).count();
    int f = (members.size() - 1) / 3;
    if (byzantine > f) {
      throw new IllegalArgumentException(
          byzantine + " Byzantine members in " + members + " but f is " + f);
    }
  }

  /** How many epoch-ending pre-prepares a Byzantine primary sent (the primary at the switch). */
  public int switchesProposedByByzantine() {
    return switchesProposedByByzantine;
  }

  /**
   * How many catch-ups a stalled view change started ({@link #pullAfterStalledViewChange}) that
   * executed at least one decision.
   */
  public int pullsAfterStalledViewChanges() {
    return pullsAfterStalledViewChanges;
  }

  private void submit(Request request) {
    submitted.put(request.id(), request);
    offerToAll(request);
  }

  public void runTicks(long ticks) {
    for (long i = 0; i < ticks; i++) {
      tick();
    }
  }

  /**
   * Runs until every correct, connected, running member of the newest epoch executed every
   * submitted request (membership changes included); fails with the seed after {@code maxTicks}.
   */
  public long runUntilAllDecided(long maxTicks) {
    long start = now;
    while (!liveNodes().stream()
        .allMatch(id -> nodes[id].decided.containsAll(submitted.keySet()))) {
      if (now - start >= maxTicks) {
        throw new InvariantViolation(
            "(4) liveness: " + summary() + " after " + maxTicks + " ticks; seed " + seed);
      }
      tick();
    }
    return now - start;
  }

  /**
   * Runs until a correct node started an epoch of {@code members}; fails after {@code maxTicks}.
   */
  public void runUntilMembers(List<Integer> members, long maxTicks) {
    long start = now;
    while (!history.newest().equals(members)) {
      if (now - start >= maxTicks) {
        throw new InvariantViolation(
            "(4) liveness: no epoch of "
                + members
                + " after "
                + maxTicks
                + " ticks: "
                + summary()
                + "; seed "
                + seed);
      }
      tick();
    }
  }

  /** The newest epoch a correct node started: its anchor's sequence. */
  public long newestEpoch() {
    return history.newestNumber();
  }

  /** The newest epoch's members that are correct, running and connected. */
  public List<Integer> liveNodes() {
    return history.newest().stream()
        .filter(
            id ->
                !down[id]
                    && !isolated.contains(id)
                    && !rogues.containsKey(id)
                    && nodes[id].correct())
        .toList();
  }

  /** The member set of the newest epoch a correct node started. */
  public List<Integer> newestMembers() {
    return history.newest();
  }

  public List<Integer> membersAt(int node) {
    return epochs[node].members();
  }

  public ReplicaStatus status(int node) {
    return nodes[node].replica.status();
  }

  /** The node the newest epoch's primary is, as the first live member sees its view. */
  public int leader() {
    int observer = liveNodes().getFirst();
    List<Integer> members = epochs[observer].members();
    return members.get((int) (status(observer).view() % members.size()));
  }

  /** Messages hosts dropped before their replica saw them, by reason. */
  public Map<String, Long> hostDrops() {
    return Map.copyOf(hostDrops);
  }

  /** The nodes whose commit signatures certify what {@code node} executed after {@code after}. */
  public Set<Integer> signersAfter(int node, long after) {
    Set<Integer> signers = new HashSet<>();
    for (Decision decision : nodes[node].ledger) {
      List<Integer> members = history.at(decision.sequence()).orElseThrow();
      if (decision.sequence() > after) {
        decision.certificate().forEach(s -> signers.add(members.get(s.replica())));
      }
    }
    return signers;
  }

  /** Sequence of the last decision {@code node} executed. */
  public long executedAt(int node) {
    return nodes[node].lastExecuted();
  }

  private String summary() {
    List<String> parts = new ArrayList<>();
    for (int id : liveNodes()) {
      SimNode node = nodes[id];
      long missing = submitted.keySet().stream().filter(r -> !node.decided.contains(r)).count();
      parts.add(
          "node "
              + id
              + " in epoch "
              + epochs[id].number()
              + " "
              + epochs[id].members()
              + " missing "
              + missing
              + "/"
              + submitted.size()
              + (node.replica == null ? " (no replica)" : " " + node.replica.status()));
    }
    for (int id = 0; id < nodes.length; id++) {
      if (!nodes[id].correct()) {
        parts.add("Byzantine node " + id + " " + nodes[id].byzantine.attacks());
      }
    }
    return "newest members " + history.newest() + ": " + String.join("; ", parts);
  }

  private void tick() {
    try {
      advance();
    } catch (InvariantViolation | RuntimeException failure) {
      throw new InvariantViolation(failure + " at tick " + now + "; seed " + seed, failure);
    }
  }

  private void advance() {
    now++;
    restartAt.entrySet().removeIf(due -> due.getValue() <= now && restarted(due.getKey()));
    for (SimNetwork.InFlight<Framed> message : network.due(now)) {
      deliver(message.from(), message.to(), message.message());
    }
    for (int id = 0; id < nodes.length; id++) {
      if (running(id)) {
        step(id, new Event.Tick());
      }
      if (running(id) && !nodes[id].correct()) {
        sendAll(id, epochs[id], nodes[id].byzantine.onTick(now));
      }
      if (rogues.containsKey(id) && !history.newest().contains(id)) {
        // Removed: it turns Byzantine whether or not it executed its removal itself.
        roguesActive.add(id);
      }
      if (!down[id] && roguesActive.contains(id)) {
        forge(id);
      }
    }
    if (now % Cluster.CLIENT_RESEND_TICKS == 0) {
      List<Integer> live = liveNodes();
      for (Request request : submitted.values()) {
        if (!live.stream().allMatch(id -> nodes[id].decided.contains(request.id()))) {
          offerToAll(request);
        }
      }
    }
  }

  private boolean restarted(int node) {
    restart(node);
    return true;
  }

  /** Clients reach every running node; only members order, a rogue ignores them. */
  private void offerToAll(Request request) {
    for (int id = 0; id < nodes.length; id++) {
      if (running(id)
          && !roguesActive.contains(id)
          && (nodes[id].correct() || nodes[id].byzantine.acceptsRequest(request))) {
        step(id, new Event.ClientRequest(request));
      }
    }
  }

  private void deliver(int from, int to, Framed framed) {
    if (down[to]) {
      return;
    }
    if (frameCheck(to, from, framed) == FrameCheck.NEWER_EPOCH && !roguesActive.contains(to)) {
      // The orderer pulls blocks in the background and drops the frame; here the catch-up is
      // instant, so the frame is checked again against the epoch it reached.
      catchUp(to, from, framed.epoch());
    }
    SimEpoch epoch = epochs[to];
    switch (frameCheck(to, from, framed)) {
      case OLDER_EPOCH -> drop("older epoch");
      case NEWER_EPOCH -> drop("newer epoch");
      case NOT_A_MEMBER -> drop(epoch.indexOf(from) < 0 ? "not a member" : "no replica");
      case DELIVER -> {
        if (!nodes[to].correct()) {
          sendAll(to, epoch, nodes[to].byzantine.onReceived(framed.message()));
        }
        if (running(to)) {
          step(
              to,
              new Event.Received(epoch.indexOf(from), ProposalBodies.hollowed(framed.message())));
        }
      }
    }
  }

  private FrameCheck frameCheck(int to, int from, Framed framed) {
    int sender = epochs[to].indexOf(from);
    return FrameCheck.of(
        epochs[to].number(),
        running(to),
        framed.epoch(),
        sender < 0 ? OptionalInt.empty() : OptionalInt.of(sender));
  }

  /** Whether {@code node} runs a replica: up, and a member of its epoch. */
  private boolean running(int node) {
    return !down[node] && hosts.get(node) != null;
  }

  private void drop(String reason) {
    hostDrops.merge(reason, 1L, Long::sum);
  }

  /**
   * Steps the node's host with one event as a batch of its own. A Byzantine replica runs correct
   * code on state its own lies made inconsistent, so it may trip its own invariant checks; it then
   * stops and restarts later (its host recovers it), as a Byzantine node may. A correct one fails
   * the run.
   */
  private void step(int id, Event event) {
    EpochHost<SimHostedEpoch> host = hosts.get(id);
    lowBeforeStep = host.epoch().replica().status().lowWatermark();
    EpochHost.Batch<SimHostedEpoch> batch;
    try {
      batch = host.stepAndFinish(event);
    } catch (SimHostedEpoch.CrashedBeforeSync crash) {
      crash(id);
      restartAt.put(id, now + storageFaultDownTicks);
      return;
    } catch (IllegalStateException brokenByItsOwnLies) {
      stopByzantine(id, brokenByItsOwnLies);
      return;
    } catch (InterruptedException e) {
      throw new IllegalStateException("the simulator's ledger never waits", e);
    }
    if (batch.switched().isPresent() && batch.switched().get().next().isEmpty()) {
      hosts.set(id, null);
    }
    if (batch.viewChangeStalled()) {
      pullAfterStalledViewChange(id);
    }
  }

  private void stopByzantine(int id, IllegalStateException failure) {
    if (nodes[id].correct()) {
      throw failure;
    }
    crash(id);
    restartAt.put(id, now + BYZANTINE_RESTART_TICKS);
  }

  /** A host of {@code node}'s replica in its current epoch. */
  private EpochHost<SimHostedEpoch> host(int node) {
    return new EpochHost<>(
        nodeEpoch(node, epochs[node], nodes[node].replica),
        new NodeLedger(node),
        (ended, anchor, handover) ->
            startEpoch(node, anchor, membersIn(anchor), handover)
                .map(replica -> nodeEpoch(node, epochs[node], replica)));
  }

  /** One node's epoch: the simulated network through the node's Byzantine behaviour, if any. */
  private SimHostedEpoch nodeEpoch(int id, SimEpoch epoch, Replica replica) {
    return new SimHostedEpoch(
        nodes[id].durable,
        epoch.number(),
        replica,
        messages -> sendAll(id, epoch, messages),
        reads -> serve(id, epoch, reads),
        () -> random.nextDouble() < crashBeforeSyncRate && !roguesActive.contains(id),
        decision -> new MembershipApplication(epoch.members()).endsEpoch(decision.proposal()));
  }

  private void serve(int id, SimEpoch epoch, List<ArchiveRead> reads) {
    for (ArchiveRead read : reads) {
      List<Decision> archived = nodes[id].archived(read);
      if (!archived.isEmpty()) {
        send(id, epoch, read.replica(), new Decisions(archived, epoch.indexOf(id)));
      }
    }
  }

  /** The node's application: its ledger, the invariant checks, its executed requests. */
  private final class NodeLedger implements HostApplication {

    private final int id;

    NodeLedger(int id) {
      this.id = id;
    }

    @Override
    public void execute(Decision decision) {
      if (!roguesActive.contains(id)) {
        record(id, decision);
      }
    }

    @Override
    public void awaitDurable(Decision anchor) {
      // The simulator's ledger holds a decision once executed.
    }
  }

  private void sendAll(int id, SimEpoch epoch, List<Outbound> outbounds) {
    for (Outbound outbound : outbounds) {
      if (outbound.to().isPresent()) {
        send(id, epoch, outbound.to().getAsInt(), outbound.message());
      } else {
        for (int index = 0; index < epoch.members().size(); index++) {
          if (epoch.members().get(index) != id) {
            send(id, epoch, index, outbound.message());
          }
        }
      }
    }
  }

  private void send(int id, SimEpoch epoch, int index, Message message) {
    Byzantine byzantine = nodes[id].byzantine;
    if (byzantine == null) {
      emit(id, epoch, epoch.number(), index, message);
      return;
    }
    if (message instanceof PrePrepare prePrepare
        && new MembershipApplication(epoch.members()).endsEpoch(prePrepare.proposal())) {
      switchesProposedByByzantine++;
    }
    for (Outbound outbound : byzantine.rewrite(index, message)) {
      long frame = epoch.number();
      if (byzantine.attacks().contains(Attack.FUTURE_EPOCH) && random.nextInt(8) == 0) {
        frame += 1 + random.nextInt(20);
      }
      emit(id, epoch, frame, outbound.to().orElse(index), outbound.message());
    }
  }

  private void emit(int id, SimEpoch epoch, long frame, int index, Message message) {
    if (message instanceof Commit commit) {
      checker.onCommitEmitted(id, commit);
    }
    if (message instanceof PrePrepare prePrepare
        && !rogues.containsKey(id)
        && nodes[id].correct()) {
      checker.onPrePrepareEmitted(prePrepare, lowBeforeStep, nodes[id].replica.status());
    }
    Rogue rogue = rogues.get(id);
    if (rogue != null) {
      rogue.remember(message);
    }
    network.send(now, id, epoch.members().get(index), new Framed(frame, message));
  }

  private void forge(int id) {
    SimEpoch newest = epochs[liveNodes().isEmpty() ? id : liveNodes().getFirst()];
    long next = nodes[newest.members().getFirst()].lastExecuted() + 1;
    for (Framed framed : rogues.get(id).forge(epochs[id], newest, next)) {
      for (int to = 0; to < nodes.length; to++) {
        if (to != id) {
          network.send(now, id, to, framed);
        }
      }
    }
  }

  /**
   * The application executes a decision (the host's, or a catch-up copy); returns whether it was
   * new to the ledger.
   */
  private boolean record(int id, Decision decision) {
    SimNode node = nodes[id];
    SimEpoch epoch = epochs[id];
    Decision earlier = node.executed(decision.sequence());
    if (earlier != null) {
      // Its replica delivers what a catch-up copy executed already.
      if (node.correct() && !earlier.digest().equals(decision.digest())) {
        throw new InvariantViolation(
            "(1) agreement: node " + id + " copied and decided different digests at " + earlier);
      }
      return false;
    }
    Optional<List<Integer>> next =
        new MembershipApplication(epoch.members()).endsEpoch(decision.proposal())
            ? Optional.of(membersIn(decision))
            : Optional.empty();
    if (node.correct()) {
      history.executed(decision.sequence(), next);
      checker.onDecision(id, decision, epoch.members());
      checker.checkOneViewSignatures(id, decision, epoch.members());
    } else if (decision.sequence() != node.lastExecuted() + 1) {
      return false; // a Byzantine host's ledger is its own business, but it stays gap-free
    }
    node.ledger.add(decision);
    decision.proposal().requests().forEach(request -> node.decided.add(request.id()));
    return true;
  }

  private static List<Integer> membersIn(Decision anchor) {
    return MembershipApplication.membersIn(anchor.proposal()).orElseThrow();
  }

  /**
   * The host's epoch starter: the replica of the epoch after {@code anchor} with {@code handover},
   * a new (empty) WAL, or none when the node is not a member. A rogue removed by it keeps running
   * its old replica instead, framed with the old epoch ({@link Rogue}).
   */
  private Optional<Replica> startEpoch(
      int id, Decision anchor, List<Integer> members, Handover handover) {
    SimNode node = nodes[id];
    if (rogues.containsKey(id) && !members.contains(id)) {
      roguesActive.add(id);
      return Optional.ofNullable(node.replica);
    }
    epochs[id] = SimEpoch.after(anchor, members);
    if (members.contains(id)) {
      if (!node.correct()) {
        node.byzantine.takeSeat(
            new Byzantine.Seat(members.indexOf(id), Epoch.after(anchor), members.size()));
      }
      node.startEpoch(config(members, id), services(id, members), anchor, handover);
      return Optional.of(node.replica);
    }
    node.crash();
    node.durable.clear();
    return Optional.empty();
  }

  /**
   * A catch-up copy that ends the node's epoch: the host stops (its replica did not deliver the
   * anchor), and the node runs the next epoch's replica from its ledger, as the orderer serves the
   * channel again in the epoch its ledger reached after pulling blocks.
   */
  private void switchByCatchUp(int id, Decision anchor) {
    List<Integer> members = membersIn(anchor);
    Handover handover = handover(nodes[id], anchor.sequence(), members);
    EpochHost<SimHostedEpoch> stopped = hosts.get(id);
    if (stopped != null) {
      stopped.close();
    }
    Optional<Replica> next = startEpoch(id, anchor, members, handover);
    hosts.set(id, next.isPresent() && !down[id] ? host(id) : null);
  }

  /**
   * The old replica's handover, if it delivered the anchor; after a catch-up copy it did not: then
   * its requests not executed meanwhile, and the ledger's most recent ids.
   */
  private Handover handover(SimNode node, long anchor, List<Integer> members) {
    if (node.replica != null && node.replica.status().lastDelivered() >= anchor) {
      return node.replica.handover(anchor);
    }
    List<Request> pending =
        node.replica == null
            ? List.of()
            : node.replica.handover(node.replica.status().lastDelivered()).pending().stream()
                .filter(request -> !node.decided.contains(request.id()))
                .toList();
    int memory = Cluster.simConfig(members.size()).decidedIdMemory();
    return new Handover(pending, node.executedMemory(memory).decided());
  }

  /**
   * A host that sees a newer epoch missed a switch: it copies decisions up to that epoch's anchor,
   * each checked against the member set of its own epoch, executing each (which switches epochs on
   * the way).
   */
  private void catchUp(int id, int sender, long target) {
    while (epochs[id].number() < target) {
      Optional<Decision> copy = checkedCopy(id, sender, nodes[id].lastExecuted() + 1);
      if (copy.isEmpty()) {
        return;
      }
      Decision decision = copy.get();
      SimEpoch before = epochs[id];
      if (record(id, decision)
          && new MembershipApplication(before.members()).endsEpoch(decision.proposal())) {
        switchByCatchUp(id, decision);
      }
    }
  }

  /**
   * The decision at {@code sequence} from the sender's ledger or, where that lacks it or fails the
   * check, from the next running node's, as the orderer's block puller moves on to another source
   * (removed nodes keep serving their ledgers, as Fabric followers do): a lying source alone cannot
   * keep a host behind.
   */
  private Optional<Decision> checkedCopy(int id, int sender, long sequence) {
    for (int i = 0; i < nodes.length; i++) {
      int source = (sender + i) % nodes.length;
      Decision decision = source == id || down[source] ? null : nodes[source].executed(sequence);
      if (decision == null) {
        continue;
      }
      Decision copy = liesInCatchUp(source) ? forgedCopy(source, decision, epochs[id]) : decision;
      Optional<String> reason = copyReason(epochs[id], nodes[id], copy);
      if (reason.isEmpty()) {
        return Optional.of(copy);
      }
      drop("bad copy: " + reason.get());
    }
    drop("catch-up: no source holds " + sequence);
    return Optional.empty();
  }

  /**
   * A host whose view change stalled past its patience ({@link
   * io.rubinbft.bft.host.StalledViewChange}) asks the ledgers of its epoch's members (removed ones
   * included: they keep serving theirs) which epoch they are in, and catches up to the newest one
   * claimed, as a SmartBFT orderer syncs from its cluster when a view change times out. It may be
   * behind an epoch end that only nodes which left the member set executed: the members still in
   * its epoch cannot form a quorum of view changes without them, and no member of the new epoch
   * sends it a newer-epoch frame when all of them are stalled or Byzantine. Every copy is checked
   * as in any catch-up; a claim nobody serves ends the pull.
   */
  private void pullAfterStalledViewChange(int id) {
    if (roguesActive.contains(id)) {
      return;
    }
    int source = id;
    for (int member : epochs[id].members()) {
      if (!down[member] && epochs[member].number() > epochs[source].number()) {
        source = member;
      }
    }
    long before = nodes[id].lastExecuted();
    catchUp(id, source, epochs[source].number());
    if (nodes[id].lastExecuted() > before) {
      pullsAfterStalledViewChanges++;
    }
  }

  /** A removed rogue, or a Byzantine node lying in catch-up, serves forged copies. */
  private boolean liesInCatchUp(int source) {
    return roguesActive.contains(source)
        || (!nodes[source].correct()
            && nodes[source].byzantine.attacks().contains(Attack.LYING_CATCH_UP));
  }

  /**
   * What a lying source serves instead of {@code decision}: the proposal without its requests,
   * certified by the one commit signature it can make, its own (if a member of {@code epoch}).
   */
  private Decision forgedCopy(int source, Decision decision, SimEpoch epoch) {
    Decision tampered = Byzantine.tamper(decision);
    int index = epoch.indexOf(source);
    if (index < 0) {
      return tampered;
    }
    byte[] own = keys.signCommit(source, tampered.view(), tampered.digest(), random.nextLong());
    return new Decision(
        tampered.proposal(),
        tampered.digest(),
        tampered.view(),
        List.of(new CommitSignature(index, own)));
  }

  private Optional<String> copyReason(SimEpoch epoch, SimNode node, Decision decision) {
    Digest previous = node.ledger.isEmpty() ? Digest.GENESIS : node.ledger.getLast().digest();
    if (!decision.proposal().previous().equals(previous)) {
      return Optional.of("does not chain at " + decision.sequence());
    }
    Digest digest = SimKeys.digestOf(decision.proposal());
    if (!digest.equals(decision.digest())) {
      return Optional.of("digest mismatch at " + decision.sequence());
    }
    Set<Integer> signers = new HashSet<>();
    for (CommitSignature signature : decision.certificate()) {
      int index = signature.replica();
      if (index < 0
          || index >= epoch.members().size()
          || !keys.verifyCommit(
              epoch.members().get(index), decision.view(), digest, signature.signature())) {
        return Optional.of("invalid commit signature of " + index + " at " + decision.sequence());
      }
      signers.add(index);
    }
    int quorum = new Quorums(epoch.members().size()).quorum();
    return signers.size() >= quorum
        ? Optional.empty()
        : Optional.of(signers.size() + " signers at " + decision.sequence());
  }

  private ReplicaServices services(int node, List<Integer> members) {
    MembershipApplication application = new MembershipApplication(members);
    return new ReplicaServices(
        keys.crypto(node, members),
        keys.signer(node, members, new Random(random.nextLong())),
        application,
        application);
  }

  private static ReplicaConfig config(List<Integer> members, int node) {
    return Cluster.simConfig(members.size()).withSelf(members.indexOf(node));
  }
}
