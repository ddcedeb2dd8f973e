package io.rubinbft.orderer.node;

import com.google.protobuf.ByteString;
import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.ledger.Durability;
import io.rubinbft.ledger.StoredBlock;
import io.rubinbft.orderer.block.LastConfigIndex;
import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.channel.ConfigBlockReader;
import io.rubinbft.orderer.channel.InvalidConfigException;
import io.rubinbft.orderer.channel.OrdererOrgs;
import io.rubinbft.orderer.cluster.ClusterPeers;
import io.rubinbft.orderer.consensus.ReplicaHost;
import io.rubinbft.orderer.files.FileTrees;
import io.rubinbft.orderer.msp.ChannelMsps;
import io.rubinbft.orderer.msp.IdentityResult;
import io.rubinbft.orderer.msp.MspConfigException;
import io.rubinbft.orderer.node.ChannelFailure.Check;
import io.rubinbft.orderer.onboarding.CatchUp;
import io.rubinbft.orderer.onboarding.ChannelOnboarding;
import io.rubinbft.orderer.onboarding.FollowerChannel;
import io.rubinbft.orderer.onboarding.PullStats;
import io.rubinbft.orderer.participation.BlockId;
import io.rubinbft.orderer.participation.ChannelInfo;
import io.rubinbft.orderer.participation.ChannelParticipation;
import io.rubinbft.orderer.participation.ParticipationException;
import io.rubinbft.orderer.participation.ParticipationException.Reason;
import io.rubinbft.orderer.service.Channels;
import io.rubinbft.orderer.service.ServedChannel;
import io.rubinbft.orderer.service.SubmitOutcome;
import io.rubinbft.orderer.validation.BroadcastResult;
import io.rubinbft.orderer.validation.BroadcastValidator;
import java.net.InetSocketAddress;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.BiConsumer;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.Envelope;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The channels this node serves. Orderers start with none, as Fabric v3's do. Joining with a
 * channel's genesis block creates its ledger and, if this node is one of its consenters, its
 * replica, else a follower that pulls the blocks the consenters order. Joining with a later config
 * block onboards the channel first (status "onboarding": the blocks before it are pulled from the
 * channel's orderers) and then serves it the same way. A restart resumes every channel the block
 * store holds and every onboarding in progress. Removing a channel deletes its ledger and consensus
 * WAL.
 */
public final class ChannelRegistry implements ChannelParticipation, Channels, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ChannelRegistry.class);

  private static final String CONSENTER = "consenter";
  private static final String FOLLOWER = "follower";
  private static final String ACTIVE = "active";
  private static final String FAILED = "failed";

  /**
   * How long a consenter that sees frames of a newer epoch waits before it pulls blocks: peers that
   * switched a moment before it send such frames too, and it usually reaches their epoch itself.
   */
  private static final Duration CATCH_UP_GRACE = Duration.ofSeconds(3);

  /** The first pause before a channel whose replica stopped on an error is served again. */
  static final Duration RESTART_PAUSE = Duration.ofSeconds(2);

  /** The longest pause between attempts to serve such a channel again. */
  private static final Duration RESTART_PAUSE_MAX = Duration.ofMinutes(1);

  private final Map<String, ChannelRuntime> channels = new ConcurrentSkipListMap<>();
  private final Map<String, FollowerChannel> followers = new ConcurrentSkipListMap<>();
  private final Map<String, Onboarding> onboarding = new ConcurrentSkipListMap<>();
  private final Map<String, CatchUp> catchingUp = new ConcurrentSkipListMap<>();
  private final Map<String, StoppedChannel> stopped = new ConcurrentSkipListMap<>();

  @SuppressWarnings("NullAway.Init") // set by start(), which the node calls before serving
  private NodeContext node;

  @SuppressWarnings("NullAway.Init") // set by start(), which the node calls before serving
  private ChannelHeapCheck heapCheck;

  // Told the TLS CAs of each channel joined (the admin client CA check).
  private volatile BiConsumer<String, List<X509Certificate>> joinedTlsCas = (name, cas) -> {};

  /** A channel being onboarded, and why it stopped if it failed. */
  private static final class Onboarding {
    private final String relation;

    @SuppressWarnings("NullAway.Init") // set right after construction, before the entry is mapped
    private ChannelOnboarding job;

    private volatile @Nullable String failure;

    private Onboarding(String relation) {
      this.relation = relation;
    }
  }

  /**
   * Starts every channel the node's block store holds and resumes every onboarding in progress.
   * Call once, before serving requests.
   */
  public synchronized void start(NodeContext context) throws InvalidConfigException {
    this.node = context;
    this.heapCheck = new ChannelHeapCheck(context.memory().budgets(), context.memory().heapBytes());
    for (String name : context.onboarding().pendingJoins().channels()) {
      byte[] joinBlock = context.onboarding().pendingJoins().read(name).orElseThrow();
      onboard(ConfigBlockReader.read(joinBlock), joinBlock);
      LOG.info("resumed onboarding channel {}", name);
    }
    for (String name : context.store().channelNames()) {
      if (!onboarding.containsKey(name)) {
        ChannelLedger ledger = context.store().channel(name).orElseThrow();
        serve(ledger);
        LOG.info("resumed channel {} at height {}", name, ledger.height());
      }
    }
  }

  /**
   * The channel Broadcast and Deliver see: its replica, its follower, or, when this node stopped
   * serving it for good, its ledger as it was (Broadcast refused).
   */
  @Override
  public Optional<ServedChannel> channel(String name) {
    ServedChannel runtime = channels.get(name);
    if (runtime != null) {
      return Optional.of(runtime);
    }
    ServedChannel follower = followers.get(name);
    if (follower != null) {
      return Optional.of(follower);
    }
    StoppedChannel stop = stopped.get(name);
    return stop != null && stop.readable() ? Optional.of(stop) : Optional.empty();
  }

  /** The follower of channel {@code name}, if this node follows it. */
  public Optional<FollowerChannel> follower(String name) {
    return Optional.ofNullable(followers.get(name));
  }

  /** What the block puller of channel {@code name} has done, while the channel is pulled. */
  public Optional<PullStats> pullStats(String name) {
    FollowerChannel follower = followers.get(name);
    if (follower != null) {
      return Optional.of(follower.pullStats());
    }
    CatchUp catchUp = catchingUp.get(name);
    if (catchUp != null) {
      return Optional.of(catchUp.pullStats());
    }
    return Optional.ofNullable(onboarding.get(name))
        .flatMap(entry -> Optional.ofNullable(entry.job))
        .map(ChannelOnboarding::pullStats);
  }

  /** The runtime of channel {@code name}, if this node serves it. */
  public Optional<ChannelRuntime> runtime(String name) {
    return Optional.ofNullable(channels.get(name));
  }

  /**
   * Admits a replica peer while it is a consenter (by TLS certificate) of a channel served here; on
   * a link this node dialled, only the consenter whose mapping entry names the address dialled.
   */
  public ClusterPeers clusterPeers() {
    return new ClusterPeers() {
      @Override
      public Optional<String> rejectInbound(X509Certificate certificate) {
        return channels.values().stream().anyMatch(c -> c.isConsenterCertificate(certificate))
            ? Optional.empty()
            : Optional.of("not a consenter of any channel this node serves");
      }

      @Override
      public Optional<String> rejectDialled(
          InetSocketAddress dialled, X509Certificate certificate) {
        return channels.values().stream().anyMatch(c -> c.isConsenterAt(dialled, certificate))
            ? Optional.empty()
            : Optional.of(
                "certificate of "
                    + certificate.getSubjectX500Principal().getName()
                    + " is not the one of the consenter at "
                    + dialled.getHostString()
                    + ":"
                    + dialled.getPort()
                    + " in any channel this node serves");
      }
    };
  }

  /**
   * The TLS root and intermediate CAs of every organization in the current config of every channel
   * served here, as consenter or follower, or whose blocks a stopped channel still serves: with
   * mutual TLS, Broadcast/Deliver clients may present certificates they issued.
   */
  public List<X509Certificate> clientTlsCas() {
    Set<X509Certificate> cas = new LinkedHashSet<>();
    for (ChannelRuntime channel : channels.values()) {
      cas.addAll(channel.rules().msps().tlsCaCertificates());
    }
    for (FollowerChannel channel : followers.values()) {
      cas.addAll(channel.rules().msps().tlsCaCertificates());
    }
    for (StoppedChannel channel : stopped.values()) {
      if (channel.readable()) {
        cas.addAll(channel.rules().msps().tlsCaCertificates());
      }
    }
    return List.copyOf(cas);
  }

  /**
   * The largest {@code BatchSize.AbsoluteMaxBytes} in the current config of the channels served
   * here (0 while none is): no larger envelope can be ordered, so the gRPC listener takes no larger
   * message.
   */
  public long largestAbsoluteMaxBytes() {
    long largest = 0;
    for (ChannelRuntime channel : channels.values()) {
      largest = Math.max(largest, channel.rules().absoluteMaxBytes());
    }
    for (FollowerChannel channel : followers.values()) {
      largest = Math.max(largest, channel.rules().absoluteMaxBytes());
    }
    return largest;
  }

  @Override
  public List<String> channelNames() {
    TreeSet<String> names = new TreeSet<>(channels.keySet());
    names.addAll(followers.keySet());
    names.addAll(onboarding.keySet());
    names.addAll(catchingUp.keySet());
    names.addAll(stopped.keySet());
    return List.copyOf(names);
  }

  /**
   * Consenters and followers are "active"; a channel pulling the blocks before its join block is
   * "onboarding" (with the relation it will have). A channel with a {@link #failure} is "failed",
   * with its relation and height unchanged. It stays so until it is removed.
   */
  @Override
  public Optional<ChannelInfo> info(String name) {
    String url = ChannelInfo.url(name);
    boolean failed = failure(name).isPresent();
    String status = failed ? FAILED : ACTIVE;
    ChannelRuntime runtime = channels.get(name);
    if (runtime != null) {
      String relation = runtime.consenter() ? CONSENTER : FOLLOWER;
      return Optional.of(new ChannelInfo(name, url, relation, status, runtime.ledger().height()));
    }
    if (catchingUp.containsKey(name)) {
      long height = node.store().channel(name).map(ChannelLedger::height).orElse(0L);
      return Optional.of(new ChannelInfo(name, url, CONSENTER, "onboarding", height));
    }
    FollowerChannel follower = followers.get(name);
    if (follower != null) {
      return Optional.of(new ChannelInfo(name, url, FOLLOWER, status, follower.ledger().height()));
    }
    Onboarding pulling = onboarding.get(name);
    if (pulling != null) {
      return Optional.of(
          new ChannelInfo(
              name, url, pulling.relation, failed ? FAILED : "onboarding", pulling.job.height()));
    }
    return Optional.ofNullable(stopped.get(name))
        .map(
            channel ->
                new ChannelInfo(name, url, channel.relation(), FAILED, channel.ledger().height()));
  }

  /**
   * Why this node stopped serving channel {@code name} for good, if it did, and which {@code
   * /healthz} check reports it: its replica ("consensus") or ledger writer ("ledger") stopped; a
   * follower's pulling or an onboarding stopped, or a switch between consenter and follower failed
   * ("channels"). The participation API reports exactly these channels "failed".
   */
  Optional<ChannelFailure> failure(String name) {
    ChannelRuntime runtime = channels.get(name);
    if (runtime != null) {
      return runtime
          .replicaFailure()
          .map(reason -> new ChannelFailure(Check.CONSENSUS, reason))
          .or(
              () ->
                  runtime
                      .ledgerWriterFailure()
                      .map(reason -> new ChannelFailure(Check.LEDGER, reason)));
    }
    Optional<String> reason =
        Optional.ofNullable(followers.get(name))
            .flatMap(FollowerChannel::failure)
            .or(() -> Optional.ofNullable(onboarding.get(name)).map(entry -> entry.failure))
            .or(() -> Optional.ofNullable(stopped.get(name)).map(StoppedChannel::reason));
    return reason.map(r -> new ChannelFailure(Check.CHANNELS, r));
  }

  /**
   * Joins with a genesis block (ledger and replica or follower at once) or with a later config
   * block {@code s} (onboarding: blocks {@code 0..s-1} are pulled from the channel's orderers in
   * the background, the answer says "onboarding"). The relation is "consenter" when this node is in
   * the block's consenter set, else "follower".
   */
  @Override
  public synchronized ChannelInfo join(Block configBlock, byte[] configBlockBytes)
      throws ParticipationException {
    ChannelConfig config = joinable(configBlock);
    if (!isConsenter(config)) {
      requireOrdererOrgMember(config);
    }
    String name = config.channelId();
    if (channelNames().contains(name)
        || node.store().channel(name).isPresent()
        || node.onboarding().pendingJoins().read(name).isPresent()) {
      throw new ParticipationException(Reason.ALREADY_EXISTS, "channel already exists");
    }
    Optional<String> overHeap = heapCheck.refusal(config);
    if (overHeap.isPresent()) {
      throw new ParticipationException(Reason.BAD_REQUEST, overHeap.get());
    }
    try {
      if (config.blockNumber() == 0) {
        ChannelLedger ledger = node.store().createChannel(name);
        ledger.append(configBlockBytes, Durability.SYNCED);
        serve(ledger);
      } else {
        node.onboarding().pendingJoins().save(name, configBlockBytes);
        onboard(config, configBlockBytes);
      }
    } catch (InvalidConfigException | RuntimeException e) {
      discard(name);
      throw new ParticipationException(
          e instanceof InvalidConfigException ? Reason.BAD_REQUEST : Reason.INTERNAL,
          // A RuntimeException may have no message; the answer then names the exception.
          Objects.toString(e.getMessage(), e.toString()));
    }
    ChannelInfo info = info(name).orElseThrow();
    LOG.info("joined channel {} as {}, {}", name, info.consensusRelation(), info.status());
    try {
      joinedTlsCas.accept(
          name, ChannelMsps.fromConfig(config.config(), node.provider(), 1).tlsCaCertificates());
    } catch (MspConfigException e) {
      // Not reached: joinable() built the same MSPs. The join stands either way.
      LOG.warn("cannot read the TLS CAs of channel {} just joined: {}", name, e.getMessage());
    }
    return info;
  }

  /**
   * Tells {@code observer}, on the joining thread, the name and the organizations' TLS CAs of each
   * channel joined from now on (osnadmin's join).
   */
  void observeJoins(BiConsumer<String, List<X509Certificate>> observer) {
    this.joinedTlsCas = observer;
  }

  /** Serves a channel whose ledger holds at least block 0, as consenter or follower. */
  private void serve(ChannelLedger ledger) throws InvalidConfigException {
    ChannelConfig config = newestConfig(ledger);
    heapCheck.served(config).ifPresent(LOG::warn);
    if (isConsenter(config)) {
      channels.put(ledger.name(), startRuntime(ledger));
    } else {
      followers.put(
          ledger.name(),
          FollowerChannel.start(node.pullContext(), ledger, () -> becomeConsenterLater(ledger)));
    }
  }

  /**
   * Starts onboarding {@code join}'s channel; the job tells when its ledger reaches the join block.
   * The entry is in the map before that news can be acted on: acting on it takes this registry's
   * lock, which the caller holds.
   */
  private void onboard(ChannelConfig join, byte[] joinBlock) throws InvalidConfigException {
    Onboarding entry = new Onboarding(isConsenter(join) ? CONSENTER : FOLLOWER);
    entry.job =
        ChannelOnboarding.start(
            joinBlock,
            node.pullContext(),
            node.store(),
            node.onboarding().pendingJoins(),
            new ChannelOnboarding.Outcome() {
              @Override
              public void active(ChannelLedger ledger) {
                activateLater(join.channelId(), entry, ledger);
              }

              @Override
              public void failed(String reason) {
                entry.failure = reason;
              }
            });
    onboarding.put(join.channelId(), entry);
  }

  /**
   * Called on the onboarding thread: the switch to serving runs on a thread of its own, so that a
   * removal holding this registry while it waits for the onboarding thread cannot deadlock.
   */
  private void activateLater(String name, Onboarding entry, ChannelLedger ledger) {
    Thread.ofVirtual()
        .name("activate-" + name)
        .start(
            () -> {
              synchronized (this) {
                if (onboarding.get(name) != entry) {
                  return; // removed meanwhile
                }
                try {
                  // Served first, then no longer onboarding: info() always finds the channel.
                  serve(ledger);
                  onboarding.remove(name);
                  LOG.info("channel {} onboarded at height {}", name, ledger.height());
                } catch (InvalidConfigException | RuntimeException e) {
                  entry.failure = "cannot serve the onboarded channel: " + e.getMessage();
                  LOG.error("channel {}: {}", name, entry.failure, e);
                }
              }
            });
  }

  /**
   * A follower that a config block made a consenter starts its replica, on a thread of its own for
   * the same reason as {@link #activateLater}.
   */
  private void becomeConsenterLater(ChannelLedger ledger) {
    String name = ledger.name();
    Thread.ofVirtual()
        .name("promote-" + name)
        .start(
            () -> {
              synchronized (this) {
                FollowerChannel follower = followers.get(name);
                if (follower == null || follower.ledger() != ledger) {
                  return; // removed meanwhile
                }
                follower.close();
                try {
                  channels.put(name, startRuntime(follower.ledger()));
                  followers.remove(name);
                  LOG.info("channel {}: now a consenter", name);
                } catch (InvalidConfigException | RuntimeException e) {
                  LOG.error("channel {}: cannot start the replica of a new consenter", name, e);
                  stopAfter(
                      followers,
                      name,
                      CONSENTER,
                      ledger,
                      "cannot start the replica of a new consenter: " + e.getMessage());
                }
              }
            });
  }

  /** The replica of {@code ledger}'s channel, moved to a follower or a catch-up when needed. */
  private ChannelRuntime startRuntime(ChannelLedger ledger) throws InvalidConfigException {
    ChannelRuntime runtime = startRuntimeOnly(ledger);
    runtime.onReplicaFailure(() -> restartAfterFailure(ledger, runtime));
    return runtime;
  }

  /**
   * A channel's replica stopped on an error: its WAL or ledger could not be written (a full disk).
   * The failed runtime stays in place (the channel shows "failed", {@code /healthz} fails
   * "consensus", its blocks are still served) and after a pause the channel is served again from
   * its WAL and ledger, as a node restart would; while that fails, again after pauses that double
   * up to {@link #RESTART_PAUSE_MAX}. Nothing the replica did not make durable was sent (votes wait
   * for the WAL's sync), so this is as safe as restarting the node. A channel removed or served
   * otherwise meanwhile is left alone.
   */
  private void restartAfterFailure(ChannelLedger ledger, ChannelRuntime failed) {
    String name = ledger.name();
    LOG.warn(
        "channel {}: {}; serving it again in {}",
        name,
        failed.replicaFailure().orElse("replica stopped"),
        RESTART_PAUSE);
    Thread.ofVirtual()
        .name("restart-" + name)
        .start(
            () -> {
              Duration pause = RESTART_PAUSE;
              while (true) {
                try {
                  Thread.sleep(pause);
                } catch (InterruptedException e) {
                  return;
                }
                synchronized (this) {
                  if (channels.get(name) != failed) {
                    return;
                  }
                  closeQuietly(failed);
                  // The failed runtime stays listed while the channel starts again (seconds, with
                  // its WAL recovered): the channel must not vanish from the participation API,
                  // Broadcast or Deliver in between. serve() replaces it, or, if the channel is now
                  // followed, it is removed after.
                  try {
                    serve(ledger);
                    channels.remove(name, failed);
                    LOG.info("channel {}: served again after its replica stopped", name);
                    return;
                  } catch (InvalidConfigException | RuntimeException e) {
                    LOG.warn("channel {}: cannot serve it again yet: {}", name, e.toString());
                  }
                }
                pause =
                    pause.multipliedBy(2).compareTo(RESTART_PAUSE_MAX) > 0
                        ? RESTART_PAUSE_MAX
                        : pause.multipliedBy(2);
              }
            });
  }

  private ChannelRuntime startRuntimeOnly(ChannelLedger ledger) throws InvalidConfigException {
    return ChannelRuntime.start(
        node,
        ledger,
        new ChannelRuntime.Transitions() {
          @Override
          public void leftConsenters() {
            becomeFollowerLater(ledger);
          }

          @Override
          public void behindReconfiguration(long epoch) {
            catchUpLater(ledger, "consenters run epoch " + epoch, CATCH_UP_GRACE);
          }

          @Override
          public void viewChangeStalled() {
            catchUpLater(
                ledger,
                "its view change did not install within the view-change timeout",
                Duration.ZERO);
          }
        });
  }

  /**
   * A consenter that a config block removed follows the channel from then on, pulling its blocks;
   * on a thread of its own for the same reason as {@link #activateLater}.
   */
  private void becomeFollowerLater(ChannelLedger ledger) {
    String name = ledger.name();
    Thread.ofVirtual()
        .name("follow-" + name)
        .start(
            () -> {
              synchronized (this) {
                ChannelRuntime runtime = channels.get(name);
                if (runtime == null || runtime.ledger() != ledger) {
                  return; // removed meanwhile
                }
                runtime.close();
                try {
                  followers.put(
                      name,
                      FollowerChannel.start(
                          node.pullContext(), ledger, () -> becomeConsenterLater(ledger)));
                  channels.remove(name);
                  LOG.info("channel {}: no longer a consenter, following", name);
                } catch (InvalidConfigException | RuntimeException e) {
                  LOG.error("channel {}: cannot follow after leaving the consenters", name, e);
                  stopAfter(
                      channels,
                      name,
                      FOLLOWER,
                      ledger,
                      "cannot follow after leaving the consenters: " + e.getMessage());
                }
              }
            });
  }

  /**
   * A consenter that may be behind a reconfiguration ({@code why}: its peers run a newer epoch, or
   * its view change stalls) and still is after {@code grace} asks the channel's orderers for their
   * newest config block. When one claims a config block its ledger lacks, it stops its replica,
   * pulls the blocks up to the newest config block the orderers claim ({@link CatchUp}), and serves
   * the channel again in that config's epoch, or follows it when no longer a consenter. Without
   * such a claim the replica keeps running untouched (a view change stalled by missing peers, not
   * by an epoch end, keeps its request pool and its place in the view change).
   */
  private void catchUpLater(ChannelLedger ledger, String why, Duration grace) {
    String name = ledger.name();
    Thread.ofVirtual()
        .name("catch-up-" + name)
        .start(
            () -> {
              Optional<CatchUp> started = Optional.empty();
              try {
                Thread.sleep(grace);
                if (!newerConfigClaimed(ledger)) {
                  LOG.info(
                      "channel {}: {}, but no orderer claims a config block newer than block {}:"
                          + " not catching up",
                      name,
                      why,
                      ledger.height() - 1);
                  return;
                }
                started = stopForCatchUp(ledger);
                if (started.isPresent()) {
                  LOG.info("channel {}: catching up by pulling blocks: {}", name, why);
                  long config = started.get().toNewestConfigBlock();
                  LOG.info("channel {}: caught up to config block {}", name, config);
                }
              } catch (InterruptedException e) {
                LOG.info("channel {}: catch-up ({}) ended early", name, why);
              } catch (InvalidConfigException | RuntimeException e) {
                LOG.error("channel {}: catch-up ({}) failed", name, why, e);
              }
              started.ifPresent(catchUp -> resumeAfterCatchUp(ledger, catchUp));
            });
  }

  /** Whether one of the channel's orderers claims a config block {@code ledger} lacks. */
  private boolean newerConfigClaimed(ChannelLedger ledger)
      throws InvalidConfigException, InterruptedException {
    try (CatchUp probe = new CatchUp(node.pullContext(), ledger)) {
      return probe.newerConfigClaimed();
    }
  }

  /**
   * Stops the channel's replica for a catch-up, unless it is no longer behind: it reached the newer
   * epoch, or installed a view, meanwhile.
   */
  private synchronized Optional<CatchUp> stopForCatchUp(ChannelLedger ledger)
      throws InvalidConfigException {
    ChannelRuntime runtime = channels.get(ledger.name());
    if (runtime == null
        || runtime.ledger() != ledger
        || (runtime.newerEpochSeen().isEmpty() && !changingViews(runtime))
        || catchingUp.containsKey(ledger.name())) {
      return Optional.empty();
    }
    channels.remove(ledger.name());
    runtime.close();
    CatchUp catchUp = new CatchUp(node.pullContext(), ledger);
    catchingUp.put(ledger.name(), catchUp);
    return Optional.of(catchUp);
  }

  /**
   * Whether the runtime's replica orders on the channel and is changing to a view (or complaining
   * about its view, which it leaves only once f + 1 do).
   */
  private static boolean changingViews(ChannelRuntime runtime) {
    return runtime
        .host()
        .filter(ReplicaHost::member)
        .map(host -> !host.status().progressing())
        .orElse(false);
  }

  /** Serves the channel again in the epoch its ledger is in now, unless it was removed. */
  private synchronized void resumeAfterCatchUp(ChannelLedger ledger, CatchUp catchUp) {
    catchUp.close();
    if (catchingUp.get(ledger.name()) != catchUp) {
      return;
    }
    try {
      serve(ledger);
    } catch (InvalidConfigException | RuntimeException e) {
      LOG.error("channel {}: cannot serve the channel after catching up", ledger.name(), e);
      stopped.put(
          ledger.name(),
          StoppedChannel.of(
              node,
              ledger,
              CONSENTER,
              "cannot serve the channel after catching up: " + e.getMessage()));
    }
    catchingUp.remove(ledger.name());
  }

  /**
   * Records channel {@code name} as stopped after its switch to {@code relation} failed ({@code
   * reason}), in place of its closed runtime or follower in {@code from}. Called holding this
   * registry.
   */
  private void stopAfter(
      Map<String, ?> from, String name, String relation, ChannelLedger ledger, String reason) {
    stopped.put(name, StoppedChannel.of(node, ledger, relation, reason));
    from.remove(name);
  }

  /**
   * A follower pulls the channel's blocks with its own identity, which must be an orderer
   * organization's: a block of a channel this node has no part in is refused at once.
   */
  private void requireOrdererOrgMember(ChannelConfig config) throws ParticipationException {
    // An orderer org of the config, whether or not one of its nodes is a consenter yet: a node of
    // an org added by a config update joins as a follower before it is made a consenter.
    boolean ordererOrg = OrdererOrgs.mspIds(config.config()).contains(node.identity().mspId());
    IdentityResult identity;
    try {
      identity =
          ChannelMsps.fromConfig(config.config(), node.provider(), 1)
              .deserialize(node.identity().serialized());
    } catch (MspConfigException e) {
      throw new ParticipationException(Reason.BAD_REQUEST, String.valueOf(e.getMessage()));
    }
    if (!ordererOrg || identity instanceof IdentityResult.Invalid) {
      throw new ParticipationException(
          Reason.BAD_REQUEST,
          "this node ("
              + node.identity().certificate().getSubjectX500Principal().getName()
              + ") is neither a consenter of channel '"
              + config.channelId()
              + "' nor a member of an orderer organization of it"
              + (identity instanceof IdentityResult.Invalid invalid
                  ? ": " + invalid.reason()
                  : ""));
    }
  }

  private boolean isConsenter(ChannelConfig config) {
    return config.consenters().withCertificate(node.identity().certificate()).isPresent();
  }

  private static ChannelConfig newestConfig(ChannelLedger ledger) throws InvalidConfigException {
    Block tip = ledger.block(ledger.height() - 1).orElseThrow().block();
    return ConfigBlockReader.read(ledger.block(LastConfigIndex.of(tip)).orElseThrow().block());
  }

  /**
   * Fabric's UpdateChannel: the update passes the Broadcast checks (size, /Channel/Writers) and the
   * config update processing; the answer carries the height before the config block is written.
   */
  @Override
  public ChannelInfo update(String name, Envelope update) throws ParticipationException {
    ChannelRuntime runtime = channels.get(name);
    if (runtime == null) {
      if (followers.containsKey(name) || onboarding.containsKey(name)) {
        // Fabric's ErrChannelNotReady, with its words
        throw new ParticipationException(Reason.FOLLOWER, "channel is not ready, he is a follower");
      }
      throw new ParticipationException(
          Reason.NOT_A_CHANNEL,
          channelNames().contains(name)
              ? "this orderer does not order channel "
                  + name
                  + " (it stopped it): send the update to a consenter"
              : "channel does not exist");
    }
    long height = runtime.ledger().height();
    String failed = "failed update config of channel " + name + ": ";
    BroadcastValidator validator =
        BroadcastValidator.forClients(channel -> Optional.of(runtime.rules()), node.clock())
            .withExpirationChecks(node.expirationChecks());
    if (validator.validate(update) instanceof BroadcastResult.Rejected rejected) {
      String info = rejected.verdict().info();
      throw new ParticipationException(
          Reason.BAD_REQUEST,
          failed
              + (info.startsWith(BroadcastValidator.INITIAL_CHECKS)
                  ? info
                  : BroadcastValidator.INITIAL_CHECKS + info));
    }
    SubmitOutcome outcome = runtime.submitConfigUpdate(update);
    if (!(outcome instanceof SubmitOutcome.Accepted)) {
      throw new ParticipationException(Reason.BAD_REQUEST, failed + outcome.info());
    }
    String relation = runtime.consenter() ? CONSENTER : FOLLOWER;
    return new ChannelInfo(name, ChannelInfo.url(name), relation, ACTIVE, height);
  }

  @Override
  public ByteString block(String name, BlockId block) throws ParticipationException {
    Optional<ServedChannel> served = channel(name);
    if (served.isEmpty()) {
      throw new ParticipationException(Reason.NOT_FOUND, "channel does not exist");
    }
    ChannelLedger ledger = served.get().ledger();
    long number = block.numberIn(ledger.block(ledger.height() - 1).orElseThrow().block());
    return ledger
        .block(number)
        .map(StoredBlock::bytes)
        .orElseThrow(
            () ->
                new ParticipationException(
                    Reason.NOT_FOUND, "no such block number [" + number + "] in index"));
  }

  @Override
  public synchronized void remove(String name) throws ParticipationException {
    AutoCloseable served =
        takeOut(name)
            .orElseThrow(
                () -> new ParticipationException(Reason.NOT_FOUND, "channel does not exist"));
    closeQuietly(served);
    discard(name);
    heapCheck.removed(name);
    LOG.info("removed channel {}", name);
  }

  @Override
  public synchronized void close() {
    channels.values().forEach(ChannelRuntime::close);
    channels.clear();
    followers.values().forEach(FollowerChannel::close);
    followers.clear();
    onboarding.values().forEach(entry -> entry.job.close());
    onboarding.clear();
    catchingUp.values().forEach(CatchUp::close);
    catchingUp.clear();
    stopped.clear();
  }

  /** Takes channel {@code name} out of this registry: its runtime, follower or onboarding. */
  private Optional<AutoCloseable> takeOut(String name) {
    ChannelRuntime runtime = channels.remove(name);
    if (runtime != null) {
      return Optional.of(runtime);
    }
    FollowerChannel follower = followers.remove(name);
    if (follower != null) {
      return Optional.of(follower);
    }
    CatchUp catchUp = catchingUp.remove(name);
    if (catchUp != null) {
      return Optional.of(catchUp);
    }
    if (stopped.remove(name) != null) {
      return Optional.of(() -> {}); // closed when it stopped
    }
    return Optional.ofNullable(onboarding.remove(name)).map(entry -> entry.job);
  }

  private static void closeQuietly(AutoCloseable channel) {
    try {
      channel.close();
    } catch (Exception e) {
      LOG.warn("closing {} failed: {}", channel, e.toString());
    }
  }

  /** The join block's config; its reader checks the block is a whole config block. */
  private static ChannelConfig joinable(Block configBlock) throws ParticipationException {
    try {
      return ConfigBlockReader.read(configBlock);
    } catch (InvalidConfigException e) {
      throw new ParticipationException(Reason.BAD_REQUEST, String.valueOf(e.getMessage()));
    }
  }

  /** Removes whatever a channel left: its ledger, its WAL folder and its pending join block. */
  private void discard(String name) {
    node.onboarding().pendingJoins().remove(name);
    if (node.store().channel(name).isPresent()) {
      node.store().removeChannel(name);
    }
    FileTrees.delete(node.walRoot().resolve(name));
  }
}
