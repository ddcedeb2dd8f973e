package io.rubinbft.bft.sim;

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
import io.rubinbft.bft.message.NewView;
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.message.Prepare;
import io.rubinbft.bft.message.ProposalBodies;
import io.rubinbft.bft.message.Status;
import io.rubinbft.bft.message.ViewChange;
import io.rubinbft.bft.protocol.Replica;
import io.rubinbft.bft.spi.ReplicaServices;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * Runs one {@link Scenario} deterministically on the production {@link Replica} (nothing of the
 * protocol is modelled here): the simulator's keys, application and {@link InvariantChecker}, a
 * FIFO network that delivers until quiet after every event, and ticks that drive the replicas' own
 * timeouts into the views the rounds name. After the rounds the network heals (the twin stops) and
 * every correct replica must decide every request within {@link #HEAL_BOUND} ticks.
 *
 * <p>Checked after every step: (1) agreement, (2) no two proposals at one sequence with a quorum of
 * valid commit signatures (every commit any node emitted counts), (3) in-order delivery, (5) no
 * request ordered twice (all by the {@link InvariantChecker}), (6) every decision's certificate
 * holds valid commit signatures of the view it names, and (4) liveness after the heal.
 */
final class ScenarioRunner {

  /** Small timeouts, so that forcing a view costs few ticks. */
  private static final ReplicaConfig CONFIG =
      new ReplicaConfig(
          4, 0, 4, 1 << 16, 0, 8, 4, 500, 1024, 3, 2, 32, 64, 10_000, Decisions.MAX_ANSWER_BYTES);

  private static final int HEAL_BOUND = 3_000;
  private static final int ENTRY_BOUND = 150;
  private static final int SETTLE_TICKS = 2;
  private static final int CLIENT_RESEND_TICKS = 10;
  private static final int MAX_DELIVERIES = 200_000;
  private static final long KEY_SEED = 7;

  /** What a run found: a violation (null if none) and the state the rounds left, abstracted. */
  record Outcome(String violation, String state, long danger) {}

  private record Envelope(int from, int to, Message message) {}

  private final Scenario scenario;
  private final int nodes;
  private final long[] views;
  private final SimKeys keys = new SimKeys(4, KEY_SEED);
  private final InvariantChecker checker =
      new InvariantChecker(4, keys, 0, InvariantChecker.fixed(4));
  private final Replica[] replicas;

  /** Each node's host; stepped only while its replica runs. */
  private final List<EpochHost<SimHostedEpoch>> hosts;

  private final Byzantine[] byzantine;
  private final ScenarioObservations observed;
  private final List<Request> submitted = new ArrayList<>();
  private final ArrayDeque<Envelope> network = new ArrayDeque<>();
  private final List<Integer> members = List.of(0, 1, 2, 3);
  private final StringBuilder trace;
  private final boolean forksOnly;
  private int round;
  private boolean healed;
  private long now;

  private ScenarioRunner(Scenario scenario, boolean forksOnly, StringBuilder trace) {
    this.scenario = scenario;
    this.forksOnly = forksOnly;
    this.trace = trace;
    this.nodes = scenario.nodes();
    this.views = viewsOf(scenario);
    this.replicas = new Replica[nodes];
    this.hosts = new ArrayList<>(Collections.nCopies(nodes, null));
    this.byzantine = new Byzantine[nodes];
    this.observed = new ScenarioObservations(nodes);
    SimApplication application = new SimApplication();
    for (int node = 0; node < nodes; node++) {
      int index = scenario.index(node);
      ReplicaServices services =
          new ReplicaServices(
              keys.crypto(index), keys.signer(index, new Random(node)), application, application);
      replicas[node] = Replica.start(CONFIG.withSelf(index), services);
      int self = node;
      hosts.set(
          node,
          new EpochHost<>(
              new SimHostedEpoch(
                  new ArrayList<>(),
                  0,
                  replicas[node],
                  messages -> sendAll(self, messages),
                  reads -> {},
                  () -> false,
                  decision -> false),
              decision -> execute(self, decision),
              (ended, anchor, handover) -> {
                throw new IllegalStateException("a scenario runs one epoch");
              }));
    }
    Set<Attack> attacks =
        switch (scenario.adversary()) {
          case SIGN_EVERYTHING -> EnumSet.of(Attack.SIGN_EVERYTHING);
          case REPLAY -> EnumSet.of(Attack.REPLAY);
          case EQUIVOCATE -> EnumSet.of(Attack.EQUIVOCATE);
          case WITHHOLD_COMMITS -> EnumSet.of(Attack.WITHHOLD_COMMITS);
          default -> EnumSet.noneOf(Attack.class);
        };
    if (!attacks.isEmpty()) {
      int b = scenario.byzantine();
      byzantine[b] =
          new Byzantine(b, new Byzantine.Seat(b, Epoch.GENESIS, 4), attacks, new Random(b), keys);
    }
  }

  /** The view each round runs: the first after the previous round's whose primary is its leader. */
  private static long[] viewsOf(Scenario scenario) {
    long[] views = new long[scenario.rounds().size()];
    long previous = -1;
    for (int i = 0; i < views.length; i++) {
      long view = previous + 1;
      while (view % 4 != scenario.rounds().get(i).leader()) {
        view++;
      }
      views[i] = view;
      previous = view;
    }
    return views;
  }

  static Outcome run(Scenario scenario) {
    return new ScenarioRunner(scenario, false, null).execute();
  }

  /**
   * Runs the scenario hunting forks: no (6) one-view check and no heal, so no liveness check;
   * (1)-(3) and (5) are checked as always.
   */
  static Outcome runForForks(Scenario scenario) {
    return new ScenarioRunner(scenario, true, null).execute();
  }

  /** Runs the scenario and returns what happened round by round, for a replay. */
  static String explain(Scenario scenario, boolean forksOnly) {
    StringBuilder trace = new StringBuilder();
    Outcome outcome = new ScenarioRunner(scenario, forksOnly, trace).execute();
    trace.append(outcome.violation() == null ? "no violation" : "VIOLATION " + outcome.violation());
    return trace.toString();
  }

  private Outcome execute() {
    String state = "";
    try {
      drain();
      for (round = 0; round < views.length; round++) {
        runRound();
      }
      state = state();
      if (!forksOnly) {
        heal();
      }
      return new Outcome(null, state, observed.danger());
    } catch (InvariantViolation | IllegalStateException failure) {
      if (trace != null) {
        trace.append(" ...").append(summary()).append(System.lineSeparator());
      }
      return new Outcome(
          failure.getMessage() + " (round " + round + ", tick " + now + ")",
          state.isEmpty() ? state() : state,
          observed.danger());
    }
  }

  private void runRound() {
    Scenario.Round r = scenario.rounds().get(round);
    if (trace != null) {
      trace.append(
          String.format(
              "round %d: view %d (leader %d), group %s, votes to %s:",
              round,
              views[round],
              r.leader(),
              nodesOf(r.group(nodes)),
              nodesOf(r.voteReceivers())));
    }
    submit();
    for (int t = 0; t < ENTRY_BOUND && !leaderInstalled(r, views[round]); t++) {
      tick();
    }
    for (int t = 0; t < SETTLE_TICKS; t++) {
      tick();
    }
    if (trace != null) {
      trace.append(summary()).append(System.lineSeparator());
    }
  }

  private void heal() {
    healed = true;
    if (scenario.adversary() == Scenario.Adversary.TWIN) {
      replicas[Scenario.TWIN_NODE] = null;
    }
    for (int t = 0; t < HEAL_BOUND; t++) {
      if (allDecided()) {
        if (trace != null) {
          trace.append(String.format("healed: all decided after %d ticks: %s%n", t, summary()));
        }
        return;
      }
      if (t % CLIENT_RESEND_TICKS == 0) {
        for (Request request : submitted) {
          for (int node = 0; node < nodes; node++) {
            if (!observed.hasDecided(node, request.id())) {
              offer(node, request);
            }
          }
        }
      }
      tick();
    }
    throw new InvariantViolation(
        "(4) liveness: after the heal, not every correct replica decided all "
            + submitted.size()
            + " requests within "
            + HEAL_BOUND
            + " ticks: "
            + summary());
  }

  private boolean allDecided() {
    for (int node = 0; node < 4; node++) {
      if (correct(node) && observed.decidedRequests(node) < submitted.size()) {
        return false;
      }
    }
    return true;
  }

  private boolean correct(int node) {
    return scenario.adversary() == Scenario.Adversary.NONE
        || scenario.index(node) != scenario.byzantine();
  }

  private boolean leaderInstalled(Scenario.Round r, long view) {
    for (int node = 0; node < nodes; node++) {
      if (replicas[node] != null
          && scenario.index(node) == r.leader()
          && (r.group(nodes) & (1 << node)) != 0) {
        ReplicaStatus status = replicas[node].status();
        if (status.view() > view || (status.view() == view && status.viewInstalled())) {
          return true;
        }
      }
    }
    return false;
  }

  private void submit() {
    int number = submitted.size();
    Request request =
        new Request(
            new RequestId("client-" + (number % 3), "tx-" + number),
            ("payload " + number).getBytes(StandardCharsets.UTF_8));
    submitted.add(request);
    for (int node = 0; node < nodes; node++) {
      offer(node, request);
    }
    drain();
  }

  private void offer(int node, Request request) {
    if (replicas[node] != null) {
      step(node, new Event.ClientRequest(request));
    }
  }

  private void tick() {
    now++;
    for (int node = 0; node < nodes; node++) {
      if (replicas[node] != null) {
        step(node, new Event.Tick());
      }
      if (replicas[node] != null && byzantine[node] != null) {
        sendAll(node, byzantine[node].onTick(now));
      }
      if (replicas[node] != null
          && scenario.adversary() == Scenario.Adversary.LYING_HEIGHT
          && node == scenario.byzantine()) {
        ReplicaStatus status = replicas[node].status();
        sendAll(node, List.of(Outbound.toAll(new Status(status.view(), true, 1L << 40, node))));
      }
    }
    drain();
  }

  private void drain() {
    int delivered = 0;
    while (!network.isEmpty()) {
      if (++delivered > MAX_DELIVERIES) {
        throw new IllegalStateException("the network never went quiet");
      }
      Envelope envelope = network.poll();
      int to = envelope.to();
      if (replicas[to] == null) {
        continue;
      }
      if (byzantine[to] != null) {
        sendAll(to, byzantine[to].onReceived(envelope.message()));
      }
      if (replicas[to] != null) {
        // As on the wire: view changes and new views name their proposals by digest.
        step(
            to,
            new Event.Received(
                scenario.index(envelope.from()), ProposalBodies.hollowed(envelope.message())));
      }
    }
  }

  /** Steps the node's host (bft-core's {@link EpochHost}, the orderer's) with one event. */
  private void step(int node, Event event) {
    try {
      hosts.get(node).stepAndFinish(event);
    } catch (InterruptedException e) {
      throw new IllegalStateException("the explorer's ledger never waits", e);
    } catch (IllegalStateException brokenByItsOwnLies) {
      if (correct(node)) {
        throw new IllegalStateException(
            "correct replica "
                + node
                + " broke an internal invariant: "
                + brokenByItsOwnLies.getMessage(),
            brokenByItsOwnLies);
      }
      replicas[node] = null;
    }
  }

  /** The node's application: the invariant checks and what it decided. */
  private void execute(int node, Decision decision) {
    if (correct(node)) {
      checker.onDecision(scenario.index(node), decision, members);
      if (!forksOnly) {
        checkOneView(node, decision);
      }
    }
    observed.decided(node, decision);
  }

  /**
   * (6) A decision needs a quorum of commits of one view (PBFT's committed-local): every signature
   * of its certificate is a valid commit signature in the view the decision names, and every
   * emitted commit that carried one of those signatures was of that view. The second half holds
   * even if a bug let a signature of one view verify in another.
   */
  private void checkOneView(int node, Decision decision) {
    checker.checkOneViewSignatures(node, decision, members);
    Set<Long> certificateViews = observed.certificateViews(decision);
    if (!certificateViews.stream().allMatch(v -> v == decision.view())) {
      throw InvariantChecker.oneViewViolation(
          node, decision, "commits of views " + certificateViews);
    }
  }

  private void sendAll(int node, List<Outbound> outbounds) {
    int sender = scenario.index(node);
    for (Outbound outbound : outbounds) {
      for (int to = 0; to < nodes; to++) {
        int index = scenario.index(to);
        boolean addressed =
            outbound.to().isPresent() ? outbound.to().getAsInt() == index : index != sender;
        if (addressed && to != node) {
          send(node, to, outbound.message());
        }
      }
    }
  }

  private void send(int node, int to, Message message) {
    List<Outbound> actual =
        byzantine[node] == null
            ? List.of(Outbound.toReplica(to, message))
            : byzantine[node].rewrite(scenario.index(to), message);
    for (Outbound outbound : actual) {
      Message sent = outbound.message();
      if (sent instanceof Commit commit) {
        // Every commit any node emits counts, before the network touches it.
        observed.commitEmitted(node, commit);
        checker.onCommitEmitted(commit.sender(), commit);
      }
      if (allowed(node, to, sent)) {
        network.add(new Envelope(node, to, sent));
      }
    }
  }

  /** Which links carry a message: by the view it belongs to, or by the round for view-less ones. */
  private boolean allowed(int from, int to, Message message) {
    if (healed) {
      return true;
    }
    long view = viewOf(message);
    if (view < 0) {
      int group = scenario.rounds().get(Math.min(round, views.length - 1)).group(nodes);
      return in(group, from) && in(group, to);
    }
    for (int i = 0; i < views.length; i++) {
      if (views[i] == view) {
        // A view's messages flow while its round lasts; afterwards they are lost.
        if (i < round) {
          return false;
        }
        Scenario.Round r = scenario.rounds().get(i);
        int group = r.group(nodes);
        return (message instanceof Prepare || message instanceof Commit)
            ? in(group, from) && in(r.voteReceivers(), to)
            : in(group, from) && in(group, to);
      }
    }
    // A view no round runs, between the last round and this one: its view changes reach everyone,
    // so that the view is skipped by timeout.
    return message instanceof ViewChange
        && round < views.length
        && view < views[round]
        && (round == 0 || view > views[round - 1]);
  }

  private static boolean in(int mask, int node) {
    return (mask & (1 << node)) != 0;
  }

  private static long viewOf(Message message) {
    return switch (message) {
      case PrePrepare p -> p.view();
      case Prepare p -> p.view();
      case Commit c -> c.view();
      case ViewChange v -> v.newView();
      case NewView n -> n.view();
      default -> -1;
    };
  }

  private ReplicaStatus[] statuses() {
    ReplicaStatus[] statuses = new ReplicaStatus[nodes];
    for (int node = 0; node < nodes; node++) {
      statuses[node] = replicas[node] == null ? null : replicas[node].status();
    }
    return statuses;
  }

  private String state() {
    return observed.state(statuses(), views.length == 0 ? 0 : views[views.length - 1]);
  }

  private String summary() {
    return observed.summary(statuses());
  }

  private static String nodesOf(int mask) {
    return IntStream.range(0, 5)
        .filter(n -> in(mask, n))
        .mapToObj(n -> n == Scenario.TWIN_NODE ? "twin" : "" + n)
        .toList()
        .toString();
  }
}
