package io.rubinbft.orderer.consensus;

import io.rubinbft.bft.ArchiveRead;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Effects;
import io.rubinbft.bft.Event;
import io.rubinbft.bft.Outbound;
import io.rubinbft.bft.Refusal;
import io.rubinbft.bft.Rejection;
import io.rubinbft.bft.ReplicaStatus;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.RequestId;
import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.host.EpochHost;
import io.rubinbft.bft.host.FrameCheck;
import io.rubinbft.bft.host.HostApplication;
import io.rubinbft.bft.host.HostedEpoch;
import io.rubinbft.bft.message.Message;
import io.rubinbft.bft.protocol.Replica;
import io.rubinbft.bft.wire.Decoded;
import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.channel.PbftSettings;
import io.rubinbft.orderer.cluster.ClusterNetwork;
import io.rubinbft.orderer.concurrent.Worker;
import io.rubinbft.orderer.concurrent.WorkerGroup;
import io.rubinbft.orderer.memory.MemoryBudgets;
import io.rubinbft.orderer.memory.NodeMemory;
import io.rubinbft.orderer.memory.PoolBytes;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives one channel's bft-core replica on a thread of its own (the host of docs/ARCHITECTURE.md
 * principles 1, 2 and 10): client requests and peer messages arrive through one bounded queue, time
 * arrives as ticks, and each batch of steps is carried out by bft-core's {@link EpochHost} (the
 * component the simulator and the scenario explorer run too) in bft-core's order: send-now
 * messages, then the WAL records appended and synced once for the batch, then the votes and
 * decisions that waited for them. This class provides its ports: the network, the WAL, the ledger
 * and the next epoch's replica ({@link EpochStarter}).
 *
 * <p>The replica runs in consensus epochs (docs/RECONFIG.md). When it executes a config block that
 * starts a new epoch ({@link EpochRule}), the host drops the epoch's replica at once (its decisions
 * after the block are discarded by every member alike), waits until the block is in the ledger, and
 * starts the next epoch's replica from the block's decision with the old one's handover; a node not
 * among the new consenters stops ordering (a follower). Peer messages travel tagged with their
 * sender's epoch ({@link FrameCheck}): another epoch's never reach the replica; an older one's is
 * dropped (and a member of the previous epoch that sent it is told of this one), a newer one's,
 * once f+1 members of this epoch claim it ({@link NewerEpochClaims}: a non-member's is dropped
 * first, and a member's frame of this epoch withdraws its claim), tells the channel this node may
 * be behind a reconfiguration, and so does a view change that stalls ({@link
 * io.rubinbft.bft.host.StalledViewChange}).
 *
 * <p>A client envelope this node's pool took and did not see decided within the channel's {@code
 * request_forward_timeout} goes to the primary, and after one more timeout to every other consenter
 * ({@link PendingForwards}), on topic {@link #forwardTopic}: a client may have sent it to this
 * backup only, and the primary cannot order what it never got.
 *
 * <p>Peers catching up on decisions older than the replica holds are answered from the ledger by
 * the channel's {@link ArchiveReader}, on a thread of its own: the replica thread only hands the
 * reads over, so a slow ledger or a long catch-up never delays ordering.
 */
public final class ReplicaHost implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ReplicaHost.class);
  private static final ThreadMXBean THREAD_CPU = ManagementFactory.getThreadMXBean();
  private static final int BATCH = 1024;
  private static final Duration LEDGER_POLL = Duration.ofMillis(100);

  /** At most one epoch notice per peer this often: a lagging peer sends status every second. */
  private static final long NOTICE_INTERVAL_NANOS = Duration.ofSeconds(1).toNanos();

  private static final byte[] EPOCH_NOTICE = new byte[0];

  private sealed interface Input {}

  /**
   * @param forwarded whether another consenter forwarded it (never forwarded on by this node)
   */
  private record ClientInput(
      Request request, boolean forwarded, CompletableFuture<Admission> outcome) implements Input {}

  private record PeerInput(long epoch, int from, Message message) implements Input {}

  private static final Admission ADMITTED = new Admission.Admitted();

  private final String channel;
  private final ClusterNetwork network;
  private final ChannelLedger ledger;
  private final OrderedTransactions ordered;
  private final LedgerWriter ledgerWriter;
  private final LongConsumer newerEpochSeen;
  private final Runnable viewChangeStalled;
  private final Runnable leftConsenters;
  private final EpochHost<Hosted> host;
  private final long tickNanos;
  private final ReplicaInputs<Input> inputs;
  private final MemoryBudgets budgets;
  // The byte bound of the current epoch's request pool, from its config (replica thread only).
  private PoolBytes pool;
  private final PeerDrops drops = new PeerDrops();
  private final ReplicaProgress progress = new ReplicaProgress();
  private final ForwardCounts forwards = new ForwardCounts();
  private final PendingForwards pendingForwards;
  private final ArchiveReader archiveReader;
  private final WorkerGroup workers;
  private final Worker worker;
  private volatile EpochReplica epoch;
  // The members of the epoch before this one: told of the new epoch when they send old frames.
  private volatile @Nullable ReplicaDirectory previousMembers;
  private final Map<InetSocketAddress, Long> lastNotice = new ConcurrentHashMap<>();
  private final NewerEpochClaims newerEpochClaims = new NewerEpochClaims();
  private volatile ReplicaStatus status;
  private volatile boolean member = true;
  private volatile boolean running = true;
  // Told once when the replica stopped on an error (set before or after that).
  private @Nullable Runnable failureListener;
  private boolean failureTold;
  private long ticks;

  /**
   * Starts hosting {@code first} (fresh or recovered from its WAL).
   *
   * @param ordered told of each decision when it is executed, before anything later is answered
   * @param starter starts each later epoch's replica
   * @param newerEpochSeen told (on the network thread) of each newer epoch than this node's that
   *     f+1 members of its epoch sent frames of: the catch-up hook
   * @param viewChangeStalled told (on the replica thread: must not block) when the replica's view
   *     change stalled past its patience: this node may be behind an epoch end
   * @param leftConsenters told (on the replica thread, which ends after it) when an epoch started
   *     without this node
   * @param memory the budgets of this host's input queue, and the request-pool account it shares
   *     with the node's other channels
   * @param workers the workers the channel needs besides the replica's own (its ledger writer and
   *     archive reader join it here, the owner adds others): the replica stops on the first failure
   *     among them, so that {@link #failure} reports it and {@link #onFailure} is told
   */
  public ReplicaHost(
      EpochReplica first,
      ClusterNetwork network,
      ChannelLedger ledger,
      OrderedTransactions ordered,
      EpochStarter starter,
      LongConsumer newerEpochSeen,
      Runnable viewChangeStalled,
      Runnable leftConsenters,
      Duration tick,
      NodeMemory memory,
      WorkerGroup workers) {
    this.inputs =
        new ReplicaInputs<>(memory.budgets().clientInputBytes(), memory.budgets().peerInputBytes());
    this.budgets = memory.budgets();
    this.pool = poolOf(first);
    this.channel = first.config().channelId();
    this.epoch = first;
    this.network = network;
    this.ledger = ledger;
    this.ordered = ordered;
    this.workers = workers;
    this.ledgerWriter = new LedgerWriter(ledger, ordered, workers);
    this.newerEpochSeen = newerEpochSeen;
    this.viewChangeStalled = viewChangeStalled;
    this.leftConsenters = leftConsenters;
    this.host =
        new EpochHost<>(
            new Hosted(first),
            new Application(),
            // An epoch ends when endsEpoch found, and kept, its next config.
            (ended, anchor, handover) ->
                starter
                    .start(Objects.requireNonNull(ended.nextConfig), anchor, handover)
                    .map(Hosted::new));
    this.tickNanos = tick.toNanos();
    this.status = first.replica().status();
    this.pendingForwards = new PendingForwards(first.config().pbft().requestPoolSize());
    this.archiveReader =
        new ArchiveReader(
            channel,
            (asked, replica, answer) -> send(asked, List.of(Outbound.toReplica(replica, answer))),
            workers);
    network.register(channel, this::onPeerMessage);
    // A broken invariant inside bft-core (or an unusable WAL) ends the thread: never vote on. Not
    // interrupted on close: an interrupt closes the consensus WAL's file channel under a write.
    this.worker =
        Worker.named("replica-" + channel)
            .notInterrupted()
            .onFailure(e -> tellFailure())
            .start(self -> run());
  }

  /**
   * Offers a client request (an envelope under its tx id) to the replica. Completes with {@link
   * Admission.Admitted} when it is pending (or was pending already), {@link Admission.Refused} with
   * the replica's refusal or its pool's byte bound, or {@link Admission.Unavailable} ("busy: ..."
   * when the client requests already waiting for the replica hold their byte budget). Always
   * completes: at the replica's next step, or as unavailable when the replica stopped first, so a
   * caller may wait for it without a timeout.
   */
  public CompletableFuture<Admission> submit(String txId, byte[] envelope) {
    return submit(txId, envelope, false);
  }

  /**
   * {@link #submit} for an envelope another consenter forwarded (and this node checked): this node
   * does not forward it on.
   */
  public CompletableFuture<Admission> submitForwarded(String key, byte[] envelope) {
    return submit(key, envelope, true);
  }

  private CompletableFuture<Admission> submit(String key, byte[] envelope, boolean forwarded) {
    CompletableFuture<Admission> outcome = new CompletableFuture<>();
    Request request = FabricRequests.request(key, envelope);
    ClientInput input = new ClientInput(request, forwarded, outcome);
    if (!member) {
      outcome.complete(
          new Admission.Unavailable(
              "not a consenter: this node follows channel '" + channel + "'"));
    } else if (!running) {
      outcome.complete(stopped());
    } else if (!inputs.offerClient(input, request.size())) {
      outcome.complete(
          new Admission.Unavailable(
              "busy: the client requests waiting for the replica of channel '"
                  + channel
                  + "' hold "
                  + inputs.clientBytes()
                  + " bytes, at most "
                  + inputs.clientBudget()
                  + " may wait; retry later"));
    } else if (!running && inputs.removeClient(input)) {
      // The replica thread stopped after the check above and may have drained the queue before
      // this input arrived: whoever removes the input from the queue completes it.
      outcome.complete(stopped());
    }
    return outcome;
  }

  private Admission stopped() {
    return new Admission.Unavailable(
        "not serving: the replica of channel '" + channel + "' stopped");
  }

  /** Completes the outcome of every client input still queued: no step will take them now. */
  private void refuseQueued() {
    List<ReplicaInputs.Queued<Input>> queued = new ArrayList<>();
    while (inputs.drainTo(queued, BATCH) > 0) {
      refuse(queued);
      queued.clear();
    }
  }

  private void refuse(List<ReplicaInputs.Queued<Input>> unanswered) {
    for (ReplicaInputs.Queued<Input> queued : unanswered) {
      if (queued.input() instanceof ClientInput client) {
        client.outcome().complete(stopped());
      }
      queued.release();
    }
  }

  /** The replica's state as of its last step, for metrics and health. */
  public ReplicaStatus status() {
    return status;
  }

  /** What the replica has accepted, installed and decided since start, for metrics. */
  public ReplicaProgress progress() {
    return progress;
  }

  /** The epoch the replica runs in; its last one once this node left the consenters. */
  public EpochReplica epoch() {
    return epoch;
  }

  /** False once an epoch started without this node: it orders no more on this channel. */
  public boolean member() {
    return member;
  }

  /** The consenter id of the current view's primary. */
  public long leaderId() {
    EpochReplica current = epoch;
    return current.consenterId(status.primary() % current.directory().size());
  }

  /** Why this channel's replica stopped, if it did. */
  public Optional<String> failure() {
    return worker.failure().map(e -> "replica stopped: " + e);
  }

  /**
   * Runs {@code listener} once when the replica stops on an error ({@link #failure}), on the
   * replica thread as it ends, or at once if it stopped already. Not when it is closed.
   */
  public void onFailure(Runnable listener) {
    boolean now;
    synchronized (this) {
      failureListener = listener;
      now = worker.failure().isPresent() && !running && !failureTold;
      failureTold |= now;
    }
    if (now) {
      listener.run();
    }
  }

  private void tellFailure() {
    Runnable listener;
    synchronized (this) {
      listener = failureTold ? null : failureListener;
      failureTold |= listener != null;
    }
    if (listener != null) {
      listener.run();
    }
  }

  /** Why this channel's ledger writer stopped, if it did: decided blocks no longer reach disk. */
  public Optional<String> ledgerFailure() {
    return ledgerWriter.failure();
  }

  /** The channel's consenters in the current epoch, this node included. */
  public int consenters() {
    return epoch.directory().size();
  }

  /** How many of the epoch's other consenters are among {@code connected} addresses. */
  public int connectedPeers(Set<InetSocketAddress> connected) {
    EpochReplica current = epoch;
    return current.directory().countConnected(current.self(), connected);
  }

  public PeerDrops drops() {
    return drops;
  }

  /** Envelopes forwarded to and from the other consenters. */
  public ForwardCounts forwards() {
    return forwards;
  }

  /** The cluster-network topic of forwarded envelopes of {@code channel}. */
  public static String forwardTopic(String channel) {
    // No Fabric channel name can hold '+': no channel's consensus topic is this.
    return channel + "+forward";
  }

  /**
   * Sends {@code envelope} (pending in this node's pool) to every other consenter of the current
   * epoch, for their pools: a CONFIG envelope at once, since operators send config updates to one
   * orderer; a client's envelope when the primary did not order it in time.
   */
  public void forwardToOthers(byte[] envelope) {
    EpochReplica current = epoch;
    if (!member) {
      return;
    }
    for (int replica = 0; replica < current.directory().size(); replica++) {
      if (replica != current.self()) {
        network.send(
            current.directory().address(replica), forwardTopic(channel), current.epoch(), envelope);
      }
    }
  }

  @Override
  public void close() {
    running = false;
    network.unregister(channel);
    worker.close();
    archiveReader.close();
    ledgerWriter.close();
    host.close();
  }

  private void onPeerMessage(X509Certificate peer, long frameEpoch, byte[] bytes) {
    EpochReplica current = epoch;
    OptionalInt from = current.directory().replicaOf(peer);
    switch (FrameCheck.of(current.epoch(), member, frameEpoch, from)) {
      case OLDER_EPOCH -> {
        drops.add(PeerDrops.Reason.OLDER_EPOCH);
        noticeNewerEpoch(current, peer);
      }
      case NEWER_EPOCH -> {
        drops.add(PeerDrops.Reason.NEWER_EPOCH);
        // Only what f+1 members of this epoch claim may start a catch-up (one liar cannot).
        newerEpochClaims
            .claim(
                current.epoch(),
                current.directory().size(),
                current.config().consenters().quorums().f(),
                from.getAsInt(),
                frameEpoch)
            .ifPresent(newerEpochSeen);
      }
      case NOT_A_MEMBER -> drops.add(PeerDrops.Reason.NOT_A_MEMBER);
      case DELIVER -> {
        // A member sending this epoch's frames no longer backs a newer epoch it claimed.
        newerEpochClaims.withdraw(current.epoch(), from.getAsInt());
        offerPeer(current, frameEpoch, from.getAsInt(), bytes);
      }
    }
  }

  private void offerPeer(EpochReplica current, long frameEpoch, int from, byte[] bytes) {
    switch (current.codec().decode(bytes)) {
      case Decoded.Valid<Message> valid -> {
        PeerInput input = new PeerInput(frameEpoch, from, valid.value());
        if (!inputs.offerPeer(from, input, bytes.length)) {
          drops.add(PeerDrops.Reason.QUEUE_FULL);
        }
      }
      case Decoded.Invalid<Message> invalid -> drops.add(PeerDrops.Reason.UNDECODABLE);
    }
  }

  /**
   * Tells a member of the previous epoch that sent a frame of it (it has not executed the config
   * block that ended it, or was removed by it) that this node runs a newer epoch: an empty frame of
   * this epoch, which makes the peer catch up by pulling blocks. Nobody else is answered.
   */
  private void noticeNewerEpoch(EpochReplica current, X509Certificate peer) {
    ReplicaDirectory previous = previousMembers;
    if (previous == null) {
      return;
    }
    OptionalInt index = previous.replicaOf(peer);
    if (index.isEmpty()) {
      return;
    }
    InetSocketAddress address = previous.address(index.getAsInt());
    long now = System.nanoTime();
    Long last = lastNotice.get(address);
    if (last == null || now - last >= NOTICE_INTERVAL_NANOS) {
      lastNotice.put(address, now);
      network.send(address, channel, current.epoch(), EPOCH_NOTICE);
    }
  }

  private void run() throws InterruptedException {
    long nextTick = System.nanoTime() + tickNanos;
    List<ReplicaInputs.Queued<Input>> batch = new ArrayList<>(BATCH);
    try {
      while (running) {
        ReplicaInputs.Queued<Input> first =
            inputs.poll(Math.max(0, nextTick - System.nanoTime()), TimeUnit.NANOSECONDS);
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
        Optional<String> workerFailed = workers.failure();
        if (workerFailed.isPresent()) {
          throw new IllegalStateException(workerFailed.get());
        }
      }
    } finally {
      running = false;
      // Inputs of a batch a failed step left unanswered (complete is a no-op on answered ones).
      refuse(batch);
      refuseQueued();
    }
  }

  private void stepAll(List<ReplicaInputs.Queued<Input>> batch, boolean tick)
      throws InterruptedException {
    EpochReplica current = epoch;
    for (ReplicaInputs.Queued<Input> queued : batch) {
      long started = THREAD_CPU.getCurrentThreadCpuTime();
      stepOne(current, queued.input());
      // A peer's steps (its signature checks above all) are paid from its own time budget, in
      // this thread's CPU time: wall time would also charge the peer for the time the thread was
      // not scheduled, and on a busy host starve honest peers of their share.
      queued.charge(THREAD_CPU.getCurrentThreadCpuTime() - started);
      queued.release();
    }
    if (tick) {
      host.step(new Event.Tick());
      ticks++;
    }
    EpochHost.Batch<Hosted> done = host.finish();
    progress.afterSteps(done.stepped(), System.nanoTime());
    status = current.replica().status();
    if (tick) {
      forwardDue(current);
    }
    if (done.viewChangeStalled()) {
      viewChangeStalled.run();
    }
    if (done.switched().isPresent()) {
      switched(current, done.switched().get());
    }
  }

  private void stepOne(EpochReplica current, Input input) {
    switch (input) {
      case ClientInput client -> {
        // The pool's byte bound: a request beyond it is refused before the replica sees it,
        // naming that bound (the replica's own refusal names its count bound).
        Optional<Refusal> refused =
            pool.refusal(
                poolBytes(current), client.request().size() + MemoryBudgets.ITEM_OVERHEAD_BYTES);
        if (refused.isEmpty()) {
          // Pool admission depends on nothing durable (pending requests are not logged; clients
          // resend), so the client hears at once instead of after this batch's WAL sync.
          refused =
              refusal(host.step(new Event.ClientRequest(client.request())), client.request().id());
        }
        client.outcome().complete(refused.<Admission>map(Admission.Refused::new).orElse(ADMITTED));
        if (refused.isEmpty() && !client.forwarded()) {
          pendingForwards.admitted(client.request(), ticks);
        }
      }
      case PeerInput peer when peer.epoch() != current.epoch() ->
          drops.add(PeerDrops.Reason.OLDER_EPOCH);
      case PeerInput peer -> host.step(new Event.Received(peer.from(), peer.message()));
    }
  }

  /** The bytes {@code current}'s pool holds: its requests' and, per request, their overhead. */
  private static long poolBytes(EpochReplica current) {
    return current.replica().poolBytes()
        + (long) current.replica().poolSize() * MemoryBudgets.ITEM_OVERHEAD_BYTES;
  }

  /** The byte bound of {@code epoch}'s request pool, from its config. */
  private PoolBytes poolOf(EpochReplica epoch) {
    int replicas = epoch.config().consenters().size();
    PbftSettings pbft = epoch.config().pbft();
    return PoolBytes.forChannel(
        budgets, ChannelReplicas.pipeline(replicas, pbft), pbft.batchMaxCount());
  }

  /**
   * After the host ended {@code current} at its config block (nothing of it executed beyond the
   * anchor, the block in the ledger before the next epoch's WAL replaced this one's, so that a
   * restart finds the epoch the WAL belongs to): the next epoch's peers, or following.
   */
  private void switched(EpochReplica current, EpochHost.Switch<Hosted> end) {
    Optional<EpochReplica> next = end.next().map(hosted -> hosted.epoch);
    disconnectRemoved(current, next);
    if (next.isEmpty()) {
      LOG.info(
          "channel {}: config block {} leaves this node out of the consenters: following",
          channel,
          end.anchor().sequence());
      member = false;
      running = false;
      network.unregister(channel);
      leftConsenters.run();
      return;
    }
    previousMembers = current.directory();
    lastNotice.clear();
    epoch = next.get();
    pool = poolOf(next.get());
    status = next.get().replica().status();
    LOG.info(
        "channel {}: epoch {} started with {} consenters, this node replica {}",
        channel,
        end.anchor().sequence(),
        next.get().directory().size(),
        next.get().self());
  }

  /**
   * Forwards the client envelopes this node still holds after the channel's request forward
   * timeout; the primary forwards nothing (it proposes what it holds).
   */
  private void forwardDue(EpochReplica current) {
    long timeout =
        Math.max(1, current.config().pbft().requestForwardTimeout().toNanos() / tickNanos);
    int primary = status.primary() % current.directory().size();
    for (PendingForwards.Due due : pendingForwards.due(ticks, timeout)) {
      if (primary == current.self()) {
        continue;
      }
      if (due.step() == PendingForwards.Step.TO_PRIMARY) {
        network.send(
            current.directory().address(primary),
            forwardTopic(channel),
            current.epoch(),
            due.envelope());
        forwards.sentToPrimary();
      } else {
        forwardToOthers(due.envelope());
        forwards.sentToAll();
      }
    }
  }

  private void disconnectRemoved(EpochReplica current, Optional<EpochReplica> next) {
    Set<InetSocketAddress> kept = new HashSet<>();
    next.ifPresent(
        n -> {
          for (int i = 0; i < n.directory().size(); i++) {
            kept.add(n.directory().address(i));
          }
        });
    for (int i = 0; i < current.directory().size(); i++) {
      InetSocketAddress address = current.directory().address(i);
      if (i != current.self() && !kept.contains(address)) {
        network.disconnect(address);
      }
    }
  }

  private static Optional<Refusal> refusal(Effects effects, RequestId id) {
    for (Rejection rejection : effects.rejected()) {
      if (rejection.id().equals(id)) {
        return Optional.of(rejection.refusal());
      }
    }
    return Optional.empty();
  }

  private void send(EpochReplica current, List<Outbound> messages) {
    for (Outbound out : messages) {
      byte[] bytes = current.codec().encode(out.message());
      if (out.to().isPresent()) {
        network.send(
            current.directory().address(out.to().getAsInt()), channel, current.epoch(), bytes);
      } else {
        for (int to = 0; to < current.directory().size(); to++) {
          if (to != current.self()) {
            network.send(current.directory().address(to), channel, current.epoch(), bytes);
          }
        }
      }
    }
  }

  /**
   * One epoch's ports for the {@link EpochHost}: its WAL, the cluster network framed with the
   * epoch, the ledger for archive reads, and the switch rule ({@link EpochRule}), which also finds
   * the config the next epoch runs.
   */
  private final class Hosted implements HostedEpoch {

    private final EpochReplica epoch;

    /** The config of the decided block that ends this epoch, once the switch rule found one. */
    private @Nullable ChannelConfig nextConfig;

    Hosted(EpochReplica epoch) {
      this.epoch = epoch;
    }

    @Override
    public long number() {
      return epoch.epoch();
    }

    @Override
    public Replica replica() {
      return epoch.replica();
    }

    @Override
    public void send(List<Outbound> messages) {
      ReplicaHost.this.send(epoch, messages);
    }

    /**
     * Old decisions for peers catching up, read off this thread ({@link ArchiveReader}): bft-core
     * paces each peer's reads by bytes, and a read stops after one answer's bytes.
     */
    @Override
    public void serve(List<ArchiveRead> reads) {
      archiveReader.read(epoch, reads);
    }

    @Override
    public void append(List<WalRecord> records) {
      epoch.log().append(records);
    }

    @Override
    public void sync() {
      epoch.log().sync();
    }

    @Override
    public void close() {
      epoch.log().close();
    }

    @Override
    public boolean endsEpoch(Decision decision) {
      Optional<ChannelConfig> next = EpochRule.nextEpoch(epoch.config(), decision);
      next.ifPresent(config -> nextConfig = config);
      return next.isPresent();
    }
  }

  /**
   * The ledger behind the host. {@link #ordered} hears of each decision as soon as a step yields
   * it, before the next input is stepped and answered: a copy of a request that was just decided is
   * then found ordered, though its block waits for this batch's WAL sync. A decision is a quorum's,
   * so it stands whether or not this node crashes before the sync. Decisions after an epoch-ending
   * one are neither recorded nor executed: their requests go back into the next epoch's pool.
   */
  private final class Application implements HostApplication {

    @Override
    public void decided(Decision decision) {
      ordered.executed(decision);
    }

    @Override
    public void execute(Decision decision) throws InterruptedException {
      ledgerWriter.write(decision);
      pendingForwards.decided(decision);
    }

    @Override
    public void awaitDurable(Decision anchor) throws InterruptedException {
      while (!ledger.awaitHeight(anchor.sequence() + 1, LEDGER_POLL)) {
        if (ledgerWriter.failure().isPresent() || !running) {
          throw new IllegalStateException(
              "config block "
                  + anchor.sequence()
                  + " did not reach the ledger: epoch not switched");
        }
      }
    }
  }
}
