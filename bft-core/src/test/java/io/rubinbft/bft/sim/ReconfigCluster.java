package io.rubinbft.bft.sim;

import io.rubinbft.bft.ArchiveRead;
import io.rubinbft.bft.CommitSignature;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Effects;
import io.rubinbft.bft.Epoch;
import io.rubinbft.bft.Event;
import io.rubinbft.bft.Handover;
import io.rubinbft.bft.Outbound;
import io.rubinbft.bft.Quorums;
import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.ReplicaStatus;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.RequestId;
import io.rubinbft.bft.message.Commit;
import io.rubinbft.bft.message.Decisions;
import io.rubinbft.bft.message.Message;
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.spi.ReplicaServices;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * Nodes with stable ids and keys whose member set changes while clients submit, hosted as the
 * orderer hosts its replicas (docs/RECONFIG.md): membership changes go ALONE in their proposal; a
 * host that executes one ends its epoch there (the old replica's handover, a new WAL, a new replica
 * of the new member set, or none if removed); messages travel framed with their epoch, an older
 * epoch's are dropped, and a newer epoch's make the host catch up by copying decisions from the
 * sender's ledger, checking each certificate against the member set of its epoch. Built from the
 * simulator's parts: {@link SimNode}s, {@link SimNetwork}, {@link SimKeys} and the {@link
 * InvariantChecker} over {@link EpochHistory}; one seed drives everything.
 */
public final class ReconfigCluster {

  /** A Byzantine node whose own lies broke its replica restarts this much later. */
  private static final int BYZANTINE_RESTART_TICKS = 30;

  private final long seed;
  private final Random random;
  private final SimKeys keys;
  private final SimNetwork<Framed> network;
  private final SimNode[] nodes;
  private final SimEpoch[] epochs;
  private final boolean[] down;

  /** Since when each node's replica has been changing views without installing one; -1 if not. */
  private final long[] changingViewsSince;

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
    this.changingViewsSince = new long[nodeCount];
    Arrays.fill(changingViewsSince, -1);
    for (int id = 0; id < nodeCount; id++) {
      epochs[id] = SimEpoch.genesis(genesis);
      nodes[id] =
          id < members
              ? new SimNode(id, config(genesis, id), services(id, genesis), null)
              : new SimNode(id);
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
  }

  /** The node starts again in the epoch it was in, recovering its replica if it is a member. */
  public void restart(int node) {
    if (down[node]) {
      down[node] = false;
      if (epochs[node].hasMember(node)) {
        try {
          nodes[node].restart();
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
   * How many catch-ups a stalled view change started ({@link #pullIfViewChangeStalled}) that
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
      if (!down[id] && nodes[id].replica != null) {
        step(id, new Event.Tick());
      }
      pullIfViewChangeStalled(id);
      if (!down[id] && nodes[id].replica != null && !nodes[id].correct()) {
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
      if (!down[id]
          && nodes[id].replica != null
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
    if (framed.epoch() > epochs[to].number() && !roguesActive.contains(to)) {
      catchUp(to, from, framed.epoch());
    }
    SimEpoch epoch = epochs[to];
    if (framed.epoch() != epoch.number()) {
      drop(framed.epoch() < epoch.number() ? "older epoch" : "newer epoch");
      return;
    }
    int sender = epoch.indexOf(from);
    if (sender < 0) {
      drop("not a member");
    } else if (nodes[to].replica == null) {
      drop("no replica");
    } else {
      if (!nodes[to].correct()) {
        sendAll(to, epoch, nodes[to].byzantine.onReceived(framed.message()));
      }
      if (nodes[to].replica != null) {
        step(to, new Event.Received(sender, framed.message()));
      }
    }
  }

  private void drop(String reason) {
    hostDrops.merge(reason, 1L, Long::sum);
  }

  /**
   * A Byzantine replica runs correct code on state its own lies made inconsistent, so it may trip
   * its own invariant checks; it then stops and restarts later (its host recovers it), as a
   * Byzantine node may. A correct one fails the run.
   */
  private void step(int id, Event event) {
    lowBeforeStep = nodes[id].replica.status().lowWatermark();
    Effects effects;
    try {
      effects = nodes[id].replica.step(event);
    } catch (IllegalStateException brokenByItsOwnLies) {
      stopByzantine(id, brokenByItsOwnLies);
      return;
    }
    handle(id, effects);
  }

  private void stopByzantine(int id, IllegalStateException failure) {
    if (nodes[id].correct()) {
      throw failure;
    }
    crash(id);
    restartAt.put(id, now + BYZANTINE_RESTART_TICKS);
  }

  private void handle(int id, Effects effects) {
    SimNode node = nodes[id];
    SimEpoch epoch = epochs[id];
    sendAll(id, epoch, effects.sendNow());
    for (ArchiveRead read : effects.archiveReads()) {
      List<Decision> archived = node.archived(read);
      if (!archived.isEmpty()) {
        send(id, epoch, read.replica(), new Decisions(archived, epoch.indexOf(id)));
      }
    }
    if (!effects.persist().isEmpty()) {
      if (random.nextDouble() < crashBeforeSyncRate && !roguesActive.contains(id)) {
        crash(id);
        restartAt.put(id, now + storageFaultDownTicks);
        return;
      }
      node.durable.addAll(effects.persist());
    }
    sendAll(id, epoch, effects.sendAfterPersist());
    for (Decision decision : effects.decisions()) {
      if (roguesActive.contains(id) || (!nodes[id].correct() && epochs[id] != epoch)) {
        continue;
      }
      if (epochs[id] != epoch) {
        throw new InvariantViolation(
            "(6) epoch end: node "
                + id
                + " delivered "
                + decision.sequence()
                + " after its epoch ended at "
                + epochs[id].number());
      }
      execute(id, decision);
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

  /** The application executes a decision; one that ends the epoch switches the host. */
  private void execute(int id, Decision decision) {
    SimNode node = nodes[id];
    SimEpoch epoch = epochs[id];
    Decision earlier = node.executed(decision.sequence());
    if (earlier != null) {
      // Its replica delivers what a catch-up copy executed already.
      if (node.correct() && !earlier.digest().equals(decision.digest())) {
        throw new InvariantViolation(
            "(1) agreement: node " + id + " copied and decided different digests at " + earlier);
      }
      return;
    }
    MembershipApplication application = new MembershipApplication(epoch.members());
    Optional<List<Integer>> next =
        application.endsEpoch(decision.proposal())
            ? MembershipApplication.membersIn(decision.proposal())
            : Optional.empty();
    if (node.correct()) {
      history.executed(decision.sequence(), next);
      checker.onDecision(id, decision, epoch.members());
    } else if (decision.sequence() != node.lastExecuted() + 1) {
      return; // a Byzantine host's ledger is its own business, but it stays gap-free
    }
    node.ledger.add(decision);
    decision.proposal().requests().forEach(request -> node.decided.add(request.id()));
    next.ifPresent(members -> switchEpoch(id, decision, members));
  }

  private void switchEpoch(int id, Decision anchor, List<Integer> members) {
    SimNode node = nodes[id];
    if (rogues.containsKey(id) && !members.contains(id)) {
      roguesActive.add(id);
      return;
    }
    Handover handover = handover(node, anchor.sequence(), members);
    epochs[id] = SimEpoch.after(anchor, members);
    if (members.contains(id)) {
      if (!node.correct()) {
        node.byzantine.takeSeat(
            new Byzantine.Seat(members.indexOf(id), Epoch.after(anchor), members.size()));
      }
      node.startEpoch(config(members, id), services(id, members), anchor, handover);
    } else {
      node.crash();
      node.durable.clear();
    }
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
      execute(id, copy.get());
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
   * A host whose replica has been changing views for a view-change timeout without installing one
   * asks the ledgers of its epoch's members (removed ones included: they keep serving theirs) which
   * epoch they are in, and catches up to the newest one claimed, as a SmartBFT orderer syncs from
   * its cluster when a view change times out; then again every timeout while it stays stalled. It
   * may be behind an epoch end that only nodes which left the member set executed: the members
   * still in its epoch cannot form a quorum of view changes without them, and no member of the new
   * epoch sends it a newer-epoch frame when all of them are stalled or Byzantine. Every copy is
   * checked as in any catch-up; a claim nobody serves ends the pull.
   */
  private void pullIfViewChangeStalled(int id) {
    if (down[id] || nodes[id].replica == null || roguesActive.contains(id)) {
      changingViewsSince[id] = -1;
      return;
    }
    if (nodes[id].replica.status().viewInstalled()) {
      changingViewsSince[id] = -1;
      return;
    }
    if (changingViewsSince[id] < 0) {
      changingViewsSince[id] = now;
    }
    long stalled = now - changingViewsSince[id];
    if (stalled == 0 || stalled % nodes[id].config.viewChangeTimeoutTicks() != 0) {
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
