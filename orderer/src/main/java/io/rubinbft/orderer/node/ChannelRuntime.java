package io.rubinbft.orderer.node;

import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.protocol.Replica;
import io.rubinbft.bft.spi.ReplicaServices;
import io.rubinbft.bft.wire.MessageCodec;
import io.rubinbft.bft.wire.WalRecordCodec;
import io.rubinbft.bft.wire.WireLimits;
import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.ledger.Durability;
import io.rubinbft.ledger.wal.WalConfig;
import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.channel.ConfigBlockReader;
import io.rubinbft.orderer.channel.Consenter;
import io.rubinbft.orderer.channel.InvalidConfigException;
import io.rubinbft.orderer.channel.NotAConsenterException;
import io.rubinbft.orderer.consensus.BroadcastEnvelopeChecks;
import io.rubinbft.orderer.consensus.ChannelReplicas;
import io.rubinbft.orderer.consensus.ConsensusLog;
import io.rubinbft.orderer.consensus.FabricRequests;
import io.rubinbft.orderer.consensus.LedgerDecisionArchive;
import io.rubinbft.orderer.consensus.ProposalBlocks;
import io.rubinbft.orderer.consensus.ReplicaDirectory;
import io.rubinbft.orderer.consensus.ReplicaHost;
import io.rubinbft.orderer.consensus.VerifiedEnvelopes;
import io.rubinbft.orderer.crypto.Sha256;
import io.rubinbft.orderer.msp.MspConfigException;
import io.rubinbft.orderer.policy.PolicyConfigException;
import io.rubinbft.orderer.service.ServedChannel;
import io.rubinbft.orderer.service.SubmitOutcome;
import io.rubinbft.orderer.validation.ChannelRules;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.Envelope;

/**
 * One channel served by this node: its config, ledger, validation rules and PBFT replica.
 *
 * <p>The config is the channel's genesis block (block 0); config updates arrive with a later issue.
 * Sequence {@code s} of the replica orders block {@code s}.
 */
public final class ChannelRuntime implements ServedChannel, AutoCloseable {

  private static final int IDENTITY_CACHE = 4096;

  /** How long Broadcast waits for the replica thread to take a request (normally a few ms). */
  private static final Duration SUBMIT_TIMEOUT = Duration.ofSeconds(5);

  /** Envelope digests remembered as verified at ingress: about 5 MB at this bound. */
  private static final int MAX_VERIFIED_ENVELOPES = 50_000;

  private final ChannelConfig config;
  private final ChannelLedger ledger;
  private final ChannelRules rules;
  private final VerifiedEnvelopes verified;
  private final Sha256 sha256;
  private final ReplicaHost host;

  private ChannelRuntime(
      ChannelConfig config,
      ChannelLedger ledger,
      ChannelRules rules,
      VerifiedEnvelopes verified,
      Sha256 sha256,
      ReplicaHost host) {
    this.config = config;
    this.ledger = ledger;
    this.rules = rules;
    this.verified = verified;
    this.sha256 = sha256;
    this.host = host;
  }

  /**
   * Starts serving the channel whose ledger is {@code ledger} (holding at least its genesis block),
   * recovering the replica from its WAL if it has one.
   *
   * @throws InvalidConfigException when the channel's config cannot be served by this node
   */
  public static ChannelRuntime start(NodeContext node, ChannelLedger ledger)
      throws InvalidConfigException {
    Block genesis = ledger.block(0).orElseThrow().block();
    ChannelConfig config = ConfigBlockReader.read(genesis);
    Consenter self = thisNode(config, node.identity().certificate());
    int index = config.consenters().replicaIndex(self.id()).orElseThrow();
    ReplicaConfig replicaConfig = ChannelReplicas.replicaConfig(config, index, node.tick());
    WireLimits limits = ChannelReplicas.wireLimits(replicaConfig);
    ChannelRules rules = rules(config, node);
    Sha256 sha256 = new Sha256(node.provider());
    VerifiedEnvelopes verified = new VerifiedEnvelopes(sha256, MAX_VERIFIED_ENVELOPES);
    ReplicaServices services =
        ChannelReplicas.services(
            config,
            genesis.getHeader(),
            0,
            self.id(),
            node.identity().signer(),
            BroadcastEnvelopeChecks.of(rules, node.clock(), verified),
            node.provider());
    ConsensusLog.Opened log =
        ConsensusLog.open(
            WalConfig.defaults(node.walRoot().resolve(config.channelId())),
            new WalRecordCodec(limits),
            ledger::height);
    catchUpLedger(log.records(), ledger);
    Replica replica =
        log.records().isEmpty()
            ? Replica.start(replicaConfig, services)
            : Replica.recover(replicaConfig, services, log.records());
    ReplicaHost host =
        new ReplicaHost(
            config.channelId(),
            index,
            replica,
            log.log(),
            new MessageCodec(limits),
            node.network(),
            ReplicaDirectory.fromMapping(config.consenters()),
            ledger,
            new LedgerDecisionArchive(ledger, config.consenters(), services.crypto(), sha256),
            node.tick());
    host.progress().listen(node.metrics().decisions(config.channelId()));
    return new ChannelRuntime(config, ledger, rules, verified, sha256, host);
  }

  public ChannelConfig config() {
    return config;
  }

  @Override
  public ChannelLedger ledger() {
    return ledger;
  }

  /** The rules Broadcast and Deliver validate this channel's envelopes with. */
  @Override
  public ChannelRules rules() {
    return rules;
  }

  /**
   * Offers a validated envelope to the replica's request pool. Envelopes without a tx id (other
   * header types) are keyed by their hash, so two different ones are never taken for duplicates.
   */
  @Override
  public SubmitOutcome submit(Envelope envelope, String txId) {
    byte[] bytes = envelope.toByteArray();
    // The Broadcast service validated it (signature, Writers): backups need not verify it again.
    verified.add(bytes);
    String key = FabricRequests.key(txId, bytes, sha256);
    Optional<String> refusal;
    try {
      refusal = host.submit(key, bytes).get(SUBMIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new SubmitOutcome.NotServing("interrupted");
    } catch (ExecutionException | TimeoutException e) {
      return new SubmitOutcome.NotServing("the replica did not take the request in time");
    }
    return refusal.map(this::outcomeOf).orElse(new SubmitOutcome.Accepted());
  }

  /** bft-core's refusals name their kind first ("pool full: ...", "duplicate: ..."). */
  private SubmitOutcome outcomeOf(String refusal) {
    if (refusal.startsWith("pool full")) {
      return new SubmitOutcome.PoolFull(config.pbft().requestPoolSize());
    }
    if (refusal.startsWith("duplicate")) {
      return new SubmitOutcome.AlreadyProcessed();
    }
    return new SubmitOutcome.NotServing(refusal);
  }

  public ReplicaHost host() {
    return host;
  }

  /** Whether {@code certificate} is one of this channel's consenters' TLS certificates. */
  public boolean isConsenterCertificate(X509Certificate certificate) {
    return config.consenters().consenters().stream()
        .anyMatch(
            c ->
                c.clientTlsCertificate().equals(certificate)
                    || c.serverTlsCertificate().equals(certificate));
  }

  @Override
  public void close() {
    host.close();
  }

  private static Consenter thisNode(ChannelConfig config, X509Certificate certificate)
      throws InvalidConfigException {
    try {
      return config.thisNode(certificate);
    } catch (NotAConsenterException e) {
      throw new InvalidConfigException(e.getMessage());
    }
  }

  private static ChannelRules rules(ChannelConfig config, NodeContext node)
      throws InvalidConfigException {
    try {
      return ChannelRules.fromConfig(
          config.config(),
          node.provider(),
          config.batchLimits().absoluteMaxBytes(),
          IDENTITY_CACHE);
    } catch (MspConfigException | PolicyConfigException e) {
      throw new InvalidConfigException("channel '" + config.channelId() + "': " + e.getMessage());
    }
  }

  /**
   * Appends the decisions the WAL holds but the ledger does not (a crash after the decision was
   * logged, before its block was written): the ledger never lags the consensus log after start.
   */
  private static void catchUpLedger(List<WalRecord> records, ChannelLedger ledger) {
    for (WalRecord record : records) {
      if (record instanceof WalRecord.Decided decided
          && decided.decision().sequence() == ledger.height()) {
        ledger.append(
            ProposalBlocks.signedBlock(decided.decision()).toByteArray(), Durability.SYNCED);
      }
    }
  }
}
