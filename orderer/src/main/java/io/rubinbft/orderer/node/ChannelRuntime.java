package io.rubinbft.orderer.node;

import com.google.protobuf.ByteString;
import io.rubinbft.bft.Refusal;
import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.ledger.HeightSubscription;
import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.channel.InvalidConfigException;
import io.rubinbft.orderer.concurrent.WorkerGroup;
import io.rubinbft.orderer.configtx.ConfigEnvelopeSigner;
import io.rubinbft.orderer.configtx.ConfigUpdateException;
import io.rubinbft.orderer.consensus.Admission;
import io.rubinbft.orderer.consensus.ChainState;
import io.rubinbft.orderer.consensus.ConfigState;
import io.rubinbft.orderer.consensus.ConfigStates;
import io.rubinbft.orderer.consensus.FabricRequests;
import io.rubinbft.orderer.consensus.ForwardCounts;
import io.rubinbft.orderer.consensus.OrderedTransactions;
import io.rubinbft.orderer.consensus.ReplicaHost;
import io.rubinbft.orderer.crypto.Sha256;
import io.rubinbft.orderer.service.ServedChannel;
import io.rubinbft.orderer.service.SubmitOutcome;
import io.rubinbft.orderer.validation.ChannelRules;
import java.net.InetSocketAddress;
import java.security.cert.X509Certificate;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.Envelope;

/**
 * One channel served by this node: its ledger, its PBFT replica, and the configs in force along its
 * chain ({@link ConfigStates}). Broadcast and Deliver use the newest committed config; config
 * updates become CONFIG envelopes signed by this node and ordered alone in a block; every block is
 * cut and checked under the config its predecessor leaves in force. Sequence {@code s} of the
 * replica orders block {@code s}.
 */
public final class ChannelRuntime implements ServedChannel, AutoCloseable {

  private static final int IDENTITY_CACHE = 4096;

  /** Envelope digests remembered as verified per config: about 5 MB at this bound. */
  private static final int MAX_VERIFIED_ENVELOPES = 50_000;

  private final ChannelLedger ledger;
  private final ConfigStates configs;
  private final ConfigEnvelopeSigner configSigner;
  private final Sha256 sha256;
  private final OrderedTransactions ordered;
  private final Optional<ReplicaHost> host;
  private final NewerEpochs newerEpochs;
  private final HeightSubscription commits;
  private final EnvelopeForwarding forwarding;

  private ChannelRuntime(
      ChannelLedger ledger,
      ConfigStates configs,
      ConfigEnvelopeSigner configSigner,
      Sha256 sha256,
      OrderedTransactions ordered,
      Optional<ReplicaHost> host,
      NewerEpochs newerEpochs,
      Function<Function<byte[], Optional<String>>, EnvelopeForwarding> forwarding) {
    this.ledger = ledger;
    this.configs = configs;
    this.configSigner = configSigner;
    this.sha256 = sha256;
    this.ordered = ordered;
    this.host = host;
    this.newerEpochs = newerEpochs;
    this.commits = ledger.onHeight(configs::heightReached);
    this.forwarding = forwarding.apply(this::admitForwarded);
  }

  /** What the registry does when this node's part in the channel's consensus changes. */
  public interface Transitions {

    /** An epoch started without this node: it must follow the channel. Replica thread. */
    void leftConsenters();

    /**
     * A consenter sent frames of epoch {@code epoch}, newer than this node's: unless this node
     * reaches it by itself (peers that switched a moment earlier send such frames too), it must
     * catch up by pulling blocks. Network thread: must not block.
     */
    void behindReconfiguration(long epoch);

    /**
     * The replica's view change did not install within its patience (bft-core's {@code
     * StalledViewChange}): this node may be behind an epoch end that only nodes it no longer hears
     * from executed. Replica thread: must not block.
     */
    void viewChangeStalled();

    /**
     * A config block started a new epoch under {@code config} (its consenters or its batch limits
     * changed, AbsoluteMaxBytes among them), the same on every consenter. Replica thread: must not
     * block.
     */
    void epochStarted(ChannelConfig config);
  }

  /**
   * Starts serving the channel whose ledger is {@code ledger} (holding at least its genesis block)
   * under its newest config block: the replica of the ledger's consensus epoch, recovered from its
   * WAL if it has one, or none when this node is not one of that epoch's consenters (a follower,
   * which serves its ledger through Deliver).
   *
   * @throws InvalidConfigException when the channel's config cannot be served by this node
   */
  public static ChannelRuntime start(
      NodeContext node, ChannelLedger ledger, Transitions transitions)
      throws InvalidConfigException {
    Block genesis = ledger.block(0).orElseThrow().block();
    ConfigStates configs = configStates(node, ledger);
    String channel = configs.committed().config().channelId();
    Sha256 sha256 = new Sha256(node.provider());
    OrderedTransactions ordered = new OrderedTransactions(ledger);
    ChannelEpochs epochs =
        new ChannelEpochs(
            node,
            ledger,
            ChainState.proposals(genesis, configs, ordered, sha256),
            transitions::epochStarted);
    NewerEpochs newerEpochs = new NewerEpochs(channel, transitions::behindReconfiguration);
    // The workers the channel needs: a failure of any ends the replica, which the registry then
    // reports ("consensus") and restarts.
    WorkerGroup workers = new WorkerGroup();
    Optional<ReplicaHost> host =
        epochs
            .recover()
            .map(
                first ->
                    new ReplicaHost(
                        first,
                        node.network(),
                        ledger,
                        ordered,
                        epochs,
                        newerEpochs::seen,
                        transitions::viewChangeStalled,
                        transitions::leftConsenters,
                        node.tick(),
                        node.memory(),
                        workers));
    host.ifPresent(h -> h.progress().listen(node.metrics().decisions(channel)));
    return new ChannelRuntime(
        ledger,
        configs,
        new ConfigEnvelopeSigner(node.identity(), node.clock()),
        sha256,
        ordered,
        host,
        newerEpochs,
        admit ->
            new EnvelopeForwarding(
                channel,
                node.network(),
                () -> host.filter(ReplicaHost::member).map(ReplicaHost::epoch),
                host.map(ReplicaHost::forwards).orElseGet(ForwardCounts::new),
                admit,
                node.memory().budgets().peerInputBytes(),
                workers));
  }

  /**
   * Runs {@code listener} once if this channel's replica stops on an error (its WAL or ledger could
   * not be written, e.g. a full disk); see {@link ReplicaHost#onFailure}.
   */
  void onReplicaFailure(Runnable listener) {
    host.ifPresent(h -> h.onFailure(listener));
  }

  /** The newest committed config. */
  public ChannelConfig config() {
    return committed().config();
  }

  @Override
  public ChannelLedger ledger() {
    return ledger;
  }

  /** The rules of the newest committed config, which Broadcast and Deliver apply. */
  @Override
  public ChannelRules rules() {
    return committed().rules();
  }

  /** The config of the newest config block the ledger holds now, whether or not announced yet. */
  private ConfigState committed() {
    return configs.committedAt(ledger.height());
  }

  /**
   * Offers a validated envelope to the replica's request pool. Envelopes without a tx id (other
   * header types) are keyed by their hash, so two different ones are never taken for duplicates.
   *
   * <p>Fabric's gateway sends every transaction to every orderer and counts only SUCCESS (and
   * SmartBFT's "request already exists"), so a copy of an envelope that is pending or already
   * ordered is answered SUCCESS: it will be, or was, ordered once. Another envelope under a tx id
   * that is pending or ordered is never ordered: BAD_REQUEST. Whether it is ordered is asked of
   * {@link OrderedTransactions} (the ledger's tx index), never of a bounded memory.
   */
  @Override
  public SubmitOutcome submit(Envelope envelope, String txId) {
    byte[] bytes = envelope.toByteArray();
    String key = FabricRequests.key(txId, bytes, sha256);
    Optional<SubmitOutcome> orderedAlready = ordered.find(key).map(o -> copyOutcome(key, o, bytes));
    if (orderedAlready.isPresent()) {
      return orderedAlready.get();
    }
    // The Broadcast service validated it (signature, Writers): backups need not verify it again.
    committed().verified().add(bytes);
    SubmitOutcome outcome = offer(key, bytes, false);
    if (outcome instanceof SubmitOutcome.AlreadyProcessed) {
      // Decided since the lookup above: the host recorded it before answering.
      return ordered.find(key).map(o -> copyOutcome(key, o, bytes)).orElse(outcome);
    }
    return outcome;
  }

  /** The answer to an envelope whose request key {@code key} was ordered as {@code ordered}. */
  private static SubmitOutcome copyOutcome(
      String key, OrderedTransactions.Ordered ordered, byte[] bytes) {
    return ordered.sameEnvelope(bytes)
        ? new SubmitOutcome.Accepted()
        : new SubmitOutcome.Conflicting(key, OptionalLong.of(ordered.blockNumber()));
  }

  /**
   * Turns a CONFIG_UPDATE (its signature already found to satisfy /Channel/Writers) into the CONFIG
   * envelope this node signs, and offers that to the pool. It is keyed by the update's hash: the
   * same update sent to every orderer is ordered once, whichever node's CONFIG envelope wins.
   */
  @Override
  public SubmitOutcome submitConfigUpdate(Envelope update) {
    ConfigState state = committed();
    Envelope config;
    try {
      config = state.processor().process(update, configSigner);
    } catch (ConfigUpdateException e) {
      return new SubmitOutcome.Refused(e.status(), String.valueOf(e.getMessage()));
    }
    byte[] bytes = config.toByteArray();
    state.verified().add(bytes);
    SubmitOutcome outcome =
        offer(FabricRequests.configKey(update.toByteArray(), sha256), bytes, false);
    if (outcome instanceof SubmitOutcome.Conflicting conflicting
        && conflicting.orderedIn().isEmpty()) {
      // The same update, made into a CONFIG envelope earlier (here or by another consenter), is
      // pending: it is ordered once, whichever envelope carries it.
      return new SubmitOutcome.Accepted();
    }
    if (outcome instanceof SubmitOutcome.Accepted) {
      host.orElseThrow().forwardToOthers(bytes);
    }
    return outcome;
  }

  /**
   * An envelope another consenter forwarded: offered to the pool under the key Broadcast gives it
   * once it passes a backup's proposal check under this node's committed config (the check skips
   * the signature of bytes this node validated already).
   *
   * @return why it was refused as invalid
   */
  private Optional<String> admitForwarded(byte[] bytes) {
    Optional<String> invalid = committed().envelopes().invalidReason(ByteString.copyFrom(bytes));
    if (invalid.isEmpty()) {
      String key = FabricRequests.ofOrdered(bytes, sha256).id().key();
      // One ordered already would sit in this backup's pool until its request timer changed the
      // view: only the primary drops ordered requests when it cuts a batch.
      if (ordered.blockOf(key).isEmpty()) {
        offer(key, bytes, true);
      }
    }
    return invalid;
  }

  private SubmitOutcome offer(String key, byte[] bytes, boolean forwarded) {
    if (!consenter()) {
      return new SubmitOutcome.NotServing(
          "this node is a follower of channel '" + config().channelId() + "', not a consenter");
    }
    Admission admission;
    try {
      ReplicaHost replicas = host.orElseThrow();
      // No timeout: the host completes every submission (at its next step, or refused when it
      // stops), and a timed wait costs each Broadcast envelope a timer on the virtual-thread
      // scheduler (bench/journal/2026-11-21-16-node-cpu.md).
      admission =
          (forwarded ? replicas.submitForwarded(key, bytes) : replicas.submit(key, bytes)).get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new SubmitOutcome.NotServing("interrupted");
    } catch (ExecutionException e) {
      throw new IllegalStateException("the replica host never fails a submission's outcome", e);
    }
    return outcomeOf(key, admission);
  }

  /**
   * The Broadcast answer to the replica host's: a full pool names the bound it reached (its count,
   * or the bytes of the node's pools), which the client hears.
   */
  static SubmitOutcome outcomeOf(String key, Admission admission) {
    return switch (admission) {
      case Admission.Admitted admitted -> new SubmitOutcome.Accepted();
      case Admission.Unavailable unavailable -> new SubmitOutcome.NotServing(unavailable.reason());
      case Admission.Refused(Refusal.PoolFull full) -> new SubmitOutcome.PoolFull(full.bound());
      case Admission.Refused(Refusal.Duplicate duplicate) -> new SubmitOutcome.AlreadyProcessed();
      case Admission.Refused(Refusal.Conflict conflict) ->
          new SubmitOutcome.Conflicting(key, OptionalLong.empty());
      case Admission.Refused(Refusal.TooLarge tooLarge) ->
          new SubmitOutcome.NotServing(tooLarge.message());
    };
  }

  /**
   * The configs in force along {@code ledger}'s chain, its newest config committed.
   *
   * @throws InvalidConfigException when the newest config cannot be read
   */
  static ConfigStates configStates(NodeContext node, ChannelLedger ledger)
      throws InvalidConfigException {
    return new ConfigStates(
        ConfigState.factory(
            node.provider(),
            node.clock(),
            IDENTITY_CACHE,
            MAX_VERIFIED_ENVELOPES,
            node.expirationChecks()),
        ConfigStates.CommittedBlocks.of(ledger),
        ledger.block(ledger.height() - 1).orElseThrow().block());
  }

  /** The replica host; empty when this node was a follower of the channel since it started. */
  public Optional<ReplicaHost> host() {
    return host;
  }

  /**
   * Why this channel's replica stopped for good, if it did (a broken invariant, an unusable WAL, or
   * a worker the channel needs stopped: its ledger writer, archive reader or envelope forwarding):
   * {@code /healthz}'s "consensus" check.
   */
  public Optional<String> replicaFailure() {
    return host.flatMap(ReplicaHost::failure);
  }

  /**
   * Why decided blocks no longer reach this channel's ledger, if its writer stopped: part of {@code
   * /healthz}'s "ledger" check.
   */
  public Optional<String> ledgerWriterFailure() {
    return host.flatMap(ReplicaHost::ledgerFailure);
  }

  /** Whether this node orders on the channel (a consenter of its current epoch) or follows it. */
  public boolean consenter() {
    return host.map(ReplicaHost::member).orElse(false);
  }

  /**
   * The newest consensus epoch a consenter sent this node frames of, when it is newer than this
   * node's: this node missed a reconfiguration and must catch up by pulling blocks from the
   * consenters' Deliver service up to that epoch's config block (docs/RECONFIG.md). Peers that
   * switched a moment before this node also send such frames, so callers wait for it to persist.
   */
  public OptionalLong newerEpochSeen() {
    long own = host.map(h -> h.epoch().epoch()).orElse(-1L);
    return newerEpochs.newerThan(own);
  }

  /** Whether {@code certificate} is one of this channel's consenters' TLS certificates. */
  public boolean isConsenterCertificate(X509Certificate certificate) {
    return config().consenters().consenters().stream()
        .anyMatch(c -> c.hasTlsCertificate(certificate));
  }

  /** Whether {@code certificate} is a TLS certificate of this channel's consenter at {@code at}. */
  public boolean isConsenterAt(InetSocketAddress at, X509Certificate certificate) {
    return config().consenters().consenters().stream()
        .anyMatch(c -> c.isAt(at) && c.hasTlsCertificate(certificate));
  }

  @Override
  public void close() {
    forwarding.close();
    commits.close();
    host.ifPresent(ReplicaHost::close);
  }
}
