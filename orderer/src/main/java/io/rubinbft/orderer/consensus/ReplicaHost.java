package io.rubinbft.orderer.consensus;

import io.rubinbft.bft.ArchiveRead;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Effects;
import io.rubinbft.bft.Event;
import io.rubinbft.bft.Outbound;
import io.rubinbft.bft.Rejection;
import io.rubinbft.bft.ReplicaStatus;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.RequestId;
import io.rubinbft.bft.message.Decisions;
import io.rubinbft.bft.message.Message;
import io.rubinbft.bft.protocol.Replica;
import io.rubinbft.bft.wire.Decoded;
import io.rubinbft.bft.wire.MessageCodec;
import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.orderer.cluster.ClusterNetwork;
import java.net.InetSocketAddress;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives one channel's bft-core replica on a thread of its own (the host of ARCHITECTURE.md
 * principles 1, 2 and 10): client requests and peer messages arrive through one bounded queue, time
 * arrives as ticks, and each batch of steps is carried out in bft-core's order: send-now messages,
 * then the WAL records appended and synced once for the batch, then the votes and decisions that
 * waited for them.
 */
public final class ReplicaHost implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ReplicaHost.class);
  private static final int QUEUE = 65_536;
  private static final int BATCH = 1024;

  private sealed interface Input {}

  private record ClientInput(Request request, CompletableFuture<Optional<String>> outcome)
      implements Input {}

  private record PeerInput(int from, Message message) implements Input {}

  private final String channel;
  private final int self;
  private final Replica replica;
  private final ConsensusLog log;
  private final MessageCodec codec;
  private final ClusterNetwork network;
  private final ReplicaDirectory directory;
  private final LedgerWriter ledgerWriter;
  private final LedgerDecisionArchive archive;
  private final long tickNanos;
  private final BlockingQueue<Input> inputs = new ArrayBlockingQueue<>(QUEUE);
  private final AtomicLong droppedPeerMessages = new AtomicLong();
  private final ReplicaProgress progress = new ReplicaProgress();
  private final Thread thread;
  private volatile ReplicaStatus status;
  private volatile boolean running = true;
  private volatile String failure;

  /**
   * Starts hosting {@code replica} (fresh or recovered from {@code log}).
   *
   * @param self the replica's index among the channel's consenters
   */
  public ReplicaHost(
      String channel,
      int self,
      Replica replica,
      ConsensusLog log,
      MessageCodec codec,
      ClusterNetwork network,
      ReplicaDirectory directory,
      ChannelLedger ledger,
      LedgerDecisionArchive archive,
      Duration tick) {
    this.channel = channel;
    this.self = self;
    this.replica = replica;
    this.log = log;
    this.codec = codec;
    this.network = network;
    this.directory = directory;
    this.ledgerWriter = new LedgerWriter(ledger);
    this.archive = archive;
    this.tickNanos = tick.toNanos();
    this.status = replica.status();
    network.register(channel, this::onPeerMessage);
    this.thread = Thread.ofPlatform().name("replica-" + channel).daemon().start(this::run);
  }

  /**
   * Offers a client request (an envelope under its tx id) to the replica. Completes with empty when
   * it is pending (or was pending already), or with the reason it was refused ("pool full: ...",
   * "duplicate: ...", "request too large: ..."), also when this host's queue is full.
   */
  public CompletableFuture<Optional<String>> submit(String txId, byte[] envelope) {
    CompletableFuture<Optional<String>> outcome = new CompletableFuture<>();
    Request request = FabricRequests.request(txId, envelope);
    if (!running || !inputs.offer(new ClientInput(request, outcome))) {
      outcome.complete(Optional.of("pool full: the replica of channel '" + channel + "' is busy"));
    }
    return outcome;
  }

  /** The replica's state as of its last step, for metrics and health. */
  public ReplicaStatus status() {
    return status;
  }

  /** What the replica has accepted, installed and decided since start, for metrics. */
  public ReplicaProgress progress() {
    return progress;
  }

  /** Why this channel's replica stopped, if it did. */
  public Optional<String> failure() {
    return Optional.ofNullable(failure);
  }

  /** Why this channel's ledger writer stopped, if it did: decided blocks no longer reach disk. */
  public Optional<String> ledgerFailure() {
    return ledgerWriter.failure();
  }

  /** The channel's consenters, this node included. */
  public int consenters() {
    return directory.size();
  }

  /** How many of the channel's other consenters are among {@code connected} addresses. */
  public int connectedPeers(Set<InetSocketAddress> connected) {
    return directory.countConnected(self, connected);
  }

  public long droppedPeerMessages() {
    return droppedPeerMessages.get();
  }

  @Override
  public void close() {
    running = false;
    network.unregister(channel);
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    ledgerWriter.close();
    log.close();
  }

  private void onPeerMessage(X509Certificate peer, byte[] bytes) {
    OptionalInt from = directory.replicaOf(peer);
    if (from.isEmpty()) {
      droppedPeerMessages.incrementAndGet();
      return;
    }
    switch (codec.decode(bytes)) {
      case Decoded.Valid<Message> valid -> {
        if (!inputs.offer(new PeerInput(from.getAsInt(), valid.value()))) {
          droppedPeerMessages.incrementAndGet();
        }
      }
      case Decoded.Invalid<Message> invalid -> droppedPeerMessages.incrementAndGet();
    }
  }

  private void run() {
    long nextTick = System.nanoTime() + tickNanos;
    List<Input> batch = new ArrayList<>(BATCH);
    try {
      while (running) {
        Input first = inputs.poll(Math.max(0, nextTick - System.nanoTime()), TimeUnit.NANOSECONDS);
        if (first != null) {
          batch.add(first);
          inputs.drainTo(batch, BATCH - 1);
        }
        boolean tick = System.nanoTime() >= nextTick;
        if (tick) {
          nextTick = Math.max(nextTick + tickNanos, System.nanoTime());
        }
        stepAll(batch, tick);
        batch.clear();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      // A broken invariant inside bft-core (or an unusable WAL): stop loudly, never vote on.
      LOG.error("replica of channel {} stopped", channel, e);
      failure = "replica stopped: " + e;
      running = false;
    }
  }

  private void stepAll(List<Input> batch, boolean tick) throws InterruptedException {
    List<Effects> stepped = new ArrayList<>(batch.size() + 1);
    for (Input input : batch) {
      switch (input) {
        case ClientInput client -> {
          Effects effects = replica.step(new Event.ClientRequest(client.request()));
          // Pool admission depends on nothing durable (pending requests are not logged; clients
          // resend), so the client hears at once instead of after this batch's WAL sync.
          client.outcome().complete(refusal(effects, client.request().id()));
          stepped.add(persistAndSendNow(effects));
        }
        case PeerInput peer ->
            stepped.add(
                persistAndSendNow(replica.step(new Event.Received(peer.from(), peer.message()))));
      }
    }
    if (tick) {
      stepped.add(persistAndSendNow(replica.step(new Event.Tick())));
    }
    if (stepped.stream().anyMatch(effects -> !effects.persist().isEmpty())) {
      log.sync();
    }
    for (Effects effects : stepped) {
      send(effects.sendAfterPersist());
      for (var decision : effects.decisions()) {
        ledgerWriter.write(decision);
      }
    }
    progress.afterSteps(stepped, System.nanoTime());
    status = replica.status();
  }

  private static Optional<String> refusal(Effects effects, RequestId id) {
    for (Rejection rejection : effects.rejected()) {
      if (rejection.id().equals(id)) {
        return Optional.of(rejection.reason());
      }
    }
    return Optional.empty();
  }

  private Effects persistAndSendNow(Effects effects) {
    send(effects.sendNow());
    serveFromLedger(effects.archiveReads());
    log.append(effects.persist());
    return effects;
  }

  /**
   * Old decisions for a peer catching up, read on this thread: bft-core asks at most once per peer
   * and status interval, for at most a window of blocks.
   */
  private void serveFromLedger(List<ArchiveRead> reads) {
    for (ArchiveRead read : reads) {
      List<Decision> decisions = archive.decisions(read);
      if (!decisions.isEmpty()) {
        send(List.of(Outbound.toReplica(read.replica(), new Decisions(decisions, self))));
      }
    }
  }

  private void send(List<Outbound> messages) {
    for (Outbound out : messages) {
      byte[] bytes = codec.encode(out.message());
      if (out.to().isPresent()) {
        network.send(directory.address(out.to().getAsInt()), channel, bytes);
      } else {
        for (int to = 0; to < directory.size(); to++) {
          if (to != self) {
            network.send(directory.address(to), channel, bytes);
          }
        }
      }
    }
  }
}
