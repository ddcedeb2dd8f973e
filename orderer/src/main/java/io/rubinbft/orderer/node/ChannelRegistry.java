package io.rubinbft.orderer.node;

import com.google.protobuf.ByteString;
import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.ledger.StoredBlock;
import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.channel.ConfigBlockReader;
import io.rubinbft.orderer.channel.InvalidConfigException;
import io.rubinbft.orderer.channel.OrdererOrgs;
import io.rubinbft.orderer.cluster.ClusterPeers;
import io.rubinbft.orderer.msp.ChannelMsps;
import io.rubinbft.orderer.msp.IdentityResult;
import io.rubinbft.orderer.msp.MspConfigException;
import io.rubinbft.orderer.node.lifecycle.ChannelAction.Refuse;
import io.rubinbft.orderer.node.lifecycle.ChannelEvent;
import io.rubinbft.orderer.node.lifecycle.ChannelState;
import io.rubinbft.orderer.node.lifecycle.ChannelState.Absent;
import io.rubinbft.orderer.node.lifecycle.Relation;
import io.rubinbft.orderer.node.lifecycle.Transitions;
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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
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
 *
 * <p>Each channel is in one {@link ChannelState}; {@link Transitions} says what changes it, and
 * {@link ChannelLifecycle}'s one thread changes it. Every read here (the participation API,
 * Broadcast and Deliver, {@code /healthz}, the metrics) reads the {@link ChannelSnapshot} that
 * thread published last.
 */
public final class ChannelRegistry implements ChannelParticipation, Channels, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ChannelRegistry.class);

  @SuppressWarnings("NullAway.Init") // set by start(), which the node calls before serving
  private NodeContext node;

  @SuppressWarnings("NullAway.Init") // set by start(), which the node calls before serving
  private ChannelStarts starts;

  // Null until start(): the node's metrics and network may read the (empty) channels before.
  private volatile @Nullable ChannelLifecycle lifecycle;

  // Told the TLS CAs of each channel joined (the admin client CA check).
  private volatile BiConsumer<String, List<X509Certificate>> joinedTlsCas = (name, cas) -> {};

  /**
   * Starts every channel the node's block store holds and resumes every onboarding in progress.
   * Call once, before serving requests.
   */
  public void start(NodeContext context) throws InvalidConfigException {
    this.node = context;
    ChannelHeapCheck heapCheck =
        new ChannelHeapCheck(context.memory().budgets(), context.memory().heapBytes());
    context.metrics().channelsHeapShortfall(heapCheck::shortfallBytes);
    this.starts = new ChannelStarts(context, heapCheck);
    ChannelLifecycle started = new ChannelLifecycle(starts);
    this.lifecycle = started;
    List<String> pending = context.onboarding().pendingJoins().channels();
    for (String name : pending) {
      Relation relation =
          starts.relationIn(context.onboarding().pendingJoins().read(name).orElseThrow());
      resume(started, name, new ChannelEvent.ResumeOnboarding(relation));
      LOG.info("resumed onboarding channel {}", name);
    }
    for (String name : context.store().channelNames()) {
      if (!pending.contains(name)) {
        resume(started, name, new ChannelEvent.Resume());
        LOG.info("resumed channel {} at height {}", name, starts.ledger(name).height());
      }
    }
  }

  private static void resume(ChannelLifecycle lifecycle, String name, ChannelEvent event)
      throws InvalidConfigException {
    try {
      lifecycle.request(name, starts -> event, null);
    } catch (ParticipationException e) {
      if (e.reason() == Reason.BAD_REQUEST) {
        throw new InvalidConfigException("channel " + name + ": " + e.getMessage());
      }
      throw new IllegalStateException("channel " + name + ": " + e.getMessage(), e);
    }
  }

  /** Every channel as the lifecycle thread last published it: read several things from one. */
  ChannelSnapshot snapshot() {
    ChannelLifecycle current = lifecycle;
    return current == null ? ChannelSnapshot.EMPTY : current.snapshot();
  }

  /**
   * The channel Broadcast and Deliver see: its replica, its follower, or, when this node stopped
   * serving it for good, its ledger as it was (Broadcast refused).
   */
  @Override
  public Optional<ServedChannel> channel(String name) {
    return snapshot().get(name).flatMap(ChannelEntry::served);
  }

  /** The follower of channel {@code name}, if this node follows it. */
  public Optional<FollowerChannel> follower(String name) {
    return snapshot().get(name).flatMap(ChannelEntry::follower);
  }

  /** What the block puller of channel {@code name} has done, while the channel is pulled. */
  public Optional<PullStats> pullStats(String name) {
    return snapshot().get(name).flatMap(ChannelEntry::pullStats);
  }

  /** The runtime of channel {@code name}, if this node serves it. */
  public Optional<ChannelRuntime> runtime(String name) {
    return snapshot().get(name).flatMap(ChannelEntry::runtime);
  }

  /**
   * Admits a replica peer while it is a consenter (by TLS certificate) of a channel served here; on
   * a link this node dialled, only the consenter whose mapping entry names the address dialled.
   */
  public ClusterPeers clusterPeers() {
    return new ClusterPeers() {
      @Override
      public Optional<String> rejectInbound(X509Certificate certificate) {
        return runtimes().anyMatch(c -> c.isConsenterCertificate(certificate))
            ? Optional.empty()
            : Optional.of("not a consenter of any channel this node serves");
      }

      @Override
      public Optional<String> rejectDialled(
          InetSocketAddress dialled, X509Certificate certificate) {
        return runtimes().anyMatch(c -> c.isConsenterAt(dialled, certificate))
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

  private Stream<ChannelRuntime> runtimes() {
    return snapshot().entries().values().stream().flatMap(entry -> entry.runtime().stream());
  }

  /**
   * The TLS root and intermediate CAs of every organization in the current config of every channel
   * served here, as consenter or follower, or whose blocks a stopped channel still serves: with
   * mutual TLS, Broadcast/Deliver clients may present certificates they issued.
   */
  public List<X509Certificate> clientTlsCas() {
    Set<X509Certificate> cas = new LinkedHashSet<>();
    for (ChannelEntry entry : snapshot().entries().values()) {
      entry.served().ifPresent(served -> cas.addAll(served.rules().msps().tlsCaCertificates()));
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
    for (ChannelEntry entry : snapshot().entries().values()) {
      // Asked for every message the listener receives: no stream or list per call.
      Optional<ServedChannel> served = entry.served();
      if (served.isPresent()) {
        largest = Math.max(largest, served.get().rules().absoluteMaxBytes());
      }
    }
    return largest;
  }

  @Override
  public List<String> channelNames() {
    return snapshot().names();
  }

  /**
   * Consenters and followers are "active"; a channel pulling the blocks before its join block is
   * "onboarding" (with the relation it will have). A channel with a failure ({@link
   * ChannelEntry#failure}) is "failed", with its relation and height unchanged. It stays so until
   * it is removed.
   */
  @Override
  public Optional<ChannelInfo> info(String name) {
    return snapshot().get(name).flatMap(entry -> entry.info(name));
  }

  /**
   * Joins with a genesis block (ledger and replica or follower at once) or with a later config
   * block {@code s} (onboarding: blocks {@code 0..s-1} are pulled from the channel's orderers in
   * the background, the answer says "onboarding"). The relation is "consenter" when this node is in
   * the block's consenter set, else "follower".
   */
  @Override
  public ChannelInfo join(Block configBlock, byte[] configBlockBytes)
      throws ParticipationException {
    ChannelConfig config = joinable(configBlock);
    boolean consenter = starts.isConsenter(config);
    if (!consenter) {
      requireOrdererOrgMember(config);
    }
    String name = config.channelId();
    boolean genesis = config.blockNumber() == 0;
    Relation relation = consenter ? Relation.CONSENTER : Relation.FOLLOWER;
    // Whether its data is left on disk, and whether the heap holds it beside the channels joined
    // so far, are read on the lifecycle thread, where nothing joins or removes a channel meanwhile:
    // of two joins sent at once, the second is weighed with the first counted.
    requireLifecycle()
        .request(
            name,
            starts ->
                new ChannelEvent.Join(
                    genesis,
                    relation,
                    starts.leftOnDisk(name),
                    starts.heapRefusal(config).orElse(null)),
            configBlockBytes);
    ChannelInfo info =
        info(name)
            .orElseThrow(
                () -> new ParticipationException(Reason.INTERNAL, "channel removed meanwhile"));
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

  /**
   * Fabric's UpdateChannel: the update passes the Broadcast checks (size, /Channel/Writers) and the
   * config update processing; the answer carries the height before the config block is written.
   */
  @Override
  public ChannelInfo update(String name, Envelope update) throws ParticipationException {
    Optional<ChannelEntry> entry = snapshot().get(name);
    ChannelState state = entry.map(ChannelEntry::state).orElse(new Absent());
    for (var action : Transitions.next(state, new ChannelEvent.Update(name)).actions()) {
      if (action instanceof Refuse refuse) {
        throw new ParticipationException(refuse.reason(), refuse.message());
      }
    }
    ChannelRuntime runtime =
        entry
            .flatMap(ChannelEntry::runtime)
            .orElseThrow(
                () -> new ParticipationException(Reason.NOT_A_CHANNEL, "channel does not exist"));
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
    Relation relation = runtime.consenter() ? Relation.CONSENTER : Relation.FOLLOWER;
    return new ChannelInfo(name, ChannelInfo.url(name), relation.word(), "active", height);
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
  public void remove(String name) throws ParticipationException {
    requireLifecycle().request(name, starts -> new ChannelEvent.Remove(), null);
    LOG.info("removed channel {}", name);
  }

  @Override
  public void close() {
    ChannelLifecycle current = lifecycle;
    if (current != null) {
      current.close();
    }
  }

  private ChannelLifecycle requireLifecycle() throws ParticipationException {
    ChannelLifecycle current = lifecycle;
    if (current == null) {
      throw new ParticipationException(Reason.INTERNAL, "the node has not started its channels");
    }
    return current;
  }

  /** The join block's config; its reader checks the block is a whole config block. */
  private static ChannelConfig joinable(Block configBlock) throws ParticipationException {
    try {
      return ConfigBlockReader.read(configBlock);
    } catch (InvalidConfigException e) {
      throw new ParticipationException(Reason.BAD_REQUEST, String.valueOf(e.getMessage()));
    }
  }
}
