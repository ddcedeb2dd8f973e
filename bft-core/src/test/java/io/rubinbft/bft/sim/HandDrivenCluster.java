package io.rubinbft.bft.sim;

import io.rubinbft.bft.ArchiveRead;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Event;
import io.rubinbft.bft.Outbound;
import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.RequestId;
import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.host.EpochHost;
import io.rubinbft.bft.message.Commit;
import io.rubinbft.bft.message.Decisions;
import io.rubinbft.bft.message.Message;
import io.rubinbft.bft.message.ProposalBodies;
import io.rubinbft.bft.protocol.Replica;
import io.rubinbft.bft.spi.ReplicaServices;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;

/**
 * Four real {@link Replica}s whose network a test drives by hand: each tick delivers the messages
 * sent since the last one that a filter lets through (the others are lost), then ticks every
 * replica. Reads of decisions a replica no longer holds in memory are answered from the decisions
 * it executed, its ledger. Every commit any replica emits and every decision of a correct replica
 * goes through the {@link InvariantChecker}; violations are collected, not thrown, so a scenario
 * runs to its end.
 */
final class HandDrivenCluster {

  /** Which messages a tick delivers. */
  interface Network {
    boolean delivers(int from, int to, Message message);
  }

  record Envelope(int from, int to, Message message) {}

  static final int REPLICAS = 4;

  final SimKeys keys = new SimKeys(REPLICAS, 7);
  final Replica[] replicas = new Replica[REPLICAS];
  private final List<EpochHost<SimHostedEpoch>> hosts =
      new ArrayList<>(Collections.nCopies(REPLICAS, null));
  final List<TreeMap<Long, Decision>> decided = new ArrayList<>();
  final List<Commit> emitted = new ArrayList<>();
  final List<String> violations = new ArrayList<>();
  private final InvariantChecker checker =
      new InvariantChecker(REPLICAS, keys, 0, InvariantChecker.fixed(REPLICAS));
  private final List<Envelope> pending = new ArrayList<>();
  private final int byzantine;
  private final ReplicaConfig template;
  private final SimApplication application = new SimApplication();
  private long now;

  /**
   * @param byzantine the replica whose decisions are not checked (-1: all correct); it runs the
   *     correct code, the test makes up its lies
   */
  HandDrivenCluster(int byzantine) {
    this(byzantine, Cluster.simConfig(REPLICAS));
  }

  /** As {@link #HandDrivenCluster(int)}, every replica with {@code template}'s parameters. */
  HandDrivenCluster(int byzantine, ReplicaConfig template) {
    this.byzantine = byzantine;
    this.template = template;
    for (int i = 0; i < REPLICAS; i++) {
      decided.add(new TreeMap<>());
      replicas[i] = Replica.start(template.withSelf(i), services(i));
    }
  }

  private ReplicaServices services(int replica) {
    return new ReplicaServices(
        keys.crypto(replica), keys.signer(replica, new Random(replica)), application, application);
  }

  /**
   * Restarts {@code replica} from {@code wal}, as its node does after a crash; the messages on the
   * wire to it still arrive.
   */
  void restart(int replica, List<WalRecord> wal) {
    replicas[replica] =
        Replica.recover(template.withSelf(replica), services(replica), wal::forEach);
  }

  static Request request(String client, String key) {
    return request(client, key, 0);
  }

  /** A request whose payload is padded with zeros so that it counts {@code size} bytes at least. */
  static Request request(String client, String key, int size) {
    RequestId id = new RequestId(client, key);
    byte[] text = ("payload " + key).getBytes(StandardCharsets.UTF_8);
    return new Request(id, Arrays.copyOf(text, Math.max(text.length, size - id.utf8Bytes())));
  }

  long now() {
    return now;
  }

  /** Steps a replica through bft-core's {@link EpochHost}, the host the orderer runs. */
  void step(int replica, Event event) {
    try {
      hostOf(replica).stepAndFinish(event);
    } catch (InterruptedException e) {
      throw new IllegalStateException("this cluster's ledger never waits", e);
    }
  }

  /** The host of {@code replicas[replica]}; a new one when a test replaced the replica. */
  private EpochHost<SimHostedEpoch> hostOf(int replica) {
    EpochHost<SimHostedEpoch> host = hosts.get(replica);
    if (host == null || host.epoch().replica() != replicas[replica]) {
      host =
          new EpochHost<>(
              new SimHostedEpoch(
                  new ArrayList<>(),
                  0,
                  replicas[replica],
                  messages -> sendAll(replica, messages),
                  reads -> serve(replica, reads),
                  () -> false,
                  decision -> false),
              decision -> execute(replica, decision),
              (ended, anchor, handover) -> {
                throw new IllegalStateException("this cluster runs one epoch");
              });
      hosts.set(replica, host);
    }
    return host;
  }

  private void sendAll(int replica, List<Outbound> out) {
    for (Outbound outbound : out) {
      if (outbound.to().isPresent()) {
        send(replica, outbound.to().getAsInt(), outbound.message());
      } else {
        for (int to = 0; to < REPLICAS; to++) {
          if (to != replica) {
            send(replica, to, outbound.message());
          }
        }
      }
    }
  }

  /**
   * Answers peers' reads of decisions older than a replica holds in memory from what it executed,
   * as a node answers them from its ledger.
   */
  private void serve(int replica, List<ArchiveRead> reads) {
    for (ArchiveRead read : reads) {
      List<Decision> answer = new ArrayList<>();
      Decisions.Budget budget = new Decisions.Budget(read.maxCount(), read.maxBytes());
      long next = read.from();
      for (Decision decision : decided.get(replica).tailMap(read.from(), true).values()) {
        if (decision.sequence() != next++ || !budget.take(decision)) {
          break;
        }
        answer.add(decision);
      }
      if (!answer.isEmpty()) {
        send(replica, read.replica(), new Decisions(answer, replica));
      }
    }
  }

  private void execute(int replica, Decision decision) {
    decided.get(replica).put(decision.sequence(), decision);
    if (replica != byzantine) {
      check(() -> checker.onDecision(replica, decision, List.of(0, 1, 2, 3)));
    }
  }

  /** Puts {@code message} on the wire from {@code from} to {@code to}. */
  void send(int from, int to, Message message) {
    if (message instanceof Commit commit) {
      if (emitted.stream().noneMatch(c -> c == commit)) {
        emitted.add(commit);
      }
      check(() -> checker.onCommitEmitted(commit.sender(), commit));
    }
    pending.add(new Envelope(from, to, message));
  }

  /** One tick: delivers what {@code network} lets through (the rest is lost), ticks everyone. */
  void tick(Network network) {
    now++;
    List<Envelope> batch = new ArrayList<>(pending);
    pending.clear();
    for (Envelope envelope : batch) {
      if (network.delivers(envelope.from(), envelope.to(), envelope.message())) {
        step(
            envelope.to(),
            new Event.Received(envelope.from(), ProposalBodies.hollowed(envelope.message())));
      }
    }
    for (int i = 0; i < REPLICAS; i++) {
      step(i, new Event.Tick());
    }
  }

  /** Ticks until {@code done} or {@code maxTicks} passed; whether {@code done} holds. */
  boolean tickUntil(Network network, BooleanSupplier done, long maxTicks) {
    long start = now;
    while (!done.getAsBoolean()) {
      if (now - start >= maxTicks) {
        return false;
      }
      tick(network);
    }
    return true;
  }

  /** Whether every replica but the Byzantine one decided every sequence up to {@code sequence}. */
  boolean correctDecidedUpTo(long sequence) {
    for (int i = 0; i < REPLICAS; i++) {
      if (i != byzantine && (decided.get(i).isEmpty() || decided.get(i).lastKey() < sequence)) {
        return false;
      }
    }
    return true;
  }

  private void check(Runnable invariant) {
    try {
      invariant.run();
    } catch (InvariantViolation violation) {
      if (!violations.contains(violation.getMessage())) {
        violations.add(violation.getMessage());
      }
    }
  }
}
