package io.rubinbft.orderer.node;

import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Handover;
import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.WalBeyondWindowException;
import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.WalReplay;
import io.rubinbft.bft.protocol.Replica;
import io.rubinbft.bft.spi.ReplicaServices;
import io.rubinbft.bft.wire.MessageCodec;
import io.rubinbft.bft.wire.WalRecordCodec;
import io.rubinbft.bft.wire.WireLimits;
import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.ledger.Durability;
import io.rubinbft.ledger.wal.WalConfig;
import io.rubinbft.orderer.block.FabricProposals;
import io.rubinbft.orderer.block.ProposalBlocks;
import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.channel.Consenter;
import io.rubinbft.orderer.channel.InvalidConfigException;
import io.rubinbft.orderer.consensus.ChannelReplicas;
import io.rubinbft.orderer.consensus.ConsensusLog;
import io.rubinbft.orderer.consensus.EpochAnchors;
import io.rubinbft.orderer.consensus.EpochLocator;
import io.rubinbft.orderer.consensus.EpochReplica;
import io.rubinbft.orderer.consensus.EpochRule;
import io.rubinbft.orderer.consensus.EpochStarter;
import io.rubinbft.orderer.consensus.LedgerDecisionArchive;
import io.rubinbft.orderer.consensus.ReplicaDirectory;
import io.rubinbft.orderer.crypto.Sha256;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Builds a channel's replica for each consensus epoch this node is a member of: the replica
 * parameters, the Fabric application and the WAL from the epoch's config; at a restart, the epoch
 * the ledger is in ({@link EpochLocator}) recovered from its WAL.
 */
final class ChannelEpochs implements EpochStarter {

  /** This node's place in one epoch. */
  private record Member(
      int index, ReplicaConfig config, WireLimits limits, ReplicaServices services) {}

  private final NodeContext node;
  private final ChannelLedger ledger;
  private final FabricProposals<?> proposals;
  private final EpochFolders folders;
  private final Sha256 sha256;
  private final Consumer<ChannelConfig> epochStarted;

  /**
   * @param epochStarted told the config of every epoch a config block starts, before its replica
   */
  ChannelEpochs(
      NodeContext node,
      ChannelLedger ledger,
      FabricProposals<?> proposals,
      Consumer<ChannelConfig> epochStarted) {
    this.node = node;
    this.ledger = ledger;
    this.proposals = proposals;
    this.epochStarted = epochStarted;
    this.folders = new EpochFolders(node.walRoot().resolve(ledger.name()));
    this.sha256 = new Sha256(node.provider());
  }

  @Override
  public Optional<EpochReplica> start(ChannelConfig config, Decision anchor, Handover handover) {
    epochStarted.accept(config);
    Optional<Member> member = member(config);
    if (member.isEmpty()) {
      folders.discardAll();
      return Optional.empty();
    }
    long epoch = anchor.sequence();
    folders.discardAll();
    EpochAnchors.write(folders.of(epoch), anchor);
    ConsensusLog.Opened log = open(epoch, member.get());
    try {
      Replica replica =
          Replica.start(member.get().config(), member.get().services(), anchor, handover);
      return Optional.of(epochReplica(config, member.get(), replica, log.log()));
    } catch (RuntimeException e) {
      throw closedAfter(log, e);
    } catch (Error e) {
      throw closedAfter(log, e);
    }
  }

  /**
   * The replica of the epoch the ledger is in, recovered from that epoch's WAL; empty when this
   * node is not one of the epoch's consenters (a follower). Decisions the WAL holds beyond the
   * ledger are appended first; when one of them is a config block that ends the epoch, the next
   * epoch is the one recovered (its WAL is empty or holds its own records).
   */
  Optional<EpochReplica> recover() throws InvalidConfigException {
    folders.adoptUnversioned();
    while (true) {
      ChannelConfig config = EpochLocator.current(ledger);
      Optional<Member> member = member(config);
      if (member.isEmpty()) {
        folders.discardAll();
        return Optional.empty();
      }
      long epoch = config.blockNumber();
      ConsensusLog.Opened log = open(epoch, member.get());
      try {
        if (catchUpLedger(log.records(), config)) {
          log.log().close();
          continue;
        }
        folders.discardExcept(epoch);
        Replica replica;
        try {
          replica = recovered(config, member.get(), log);
        } catch (WalBeyondWindowException e) {
          throw new IllegalStateException(beyondWindow(e, folders.of(epoch)), e);
        }
        return Optional.of(epochReplica(config, member.get(), replica, log.log()));
      } catch (RuntimeException e) {
        throw closedAfter(log, e);
      } catch (Error e) {
        throw closedAfter(log, e);
      }
    }
  }

  /**
   * Closes the WAL a start opened and failed to hand over, and returns {@code failure} to throw: a
   * WAL left open holds its lock, and every later start of the channel in this process would fail
   * on it ("open in another process") after its first failure, e.g. a full disk that later has
   * space again.
   */
  private static <T extends Throwable> T closedAfter(ConsensusLog.Opened log, T failure) {
    try {
      log.log().close();
    } catch (RuntimeException e) {
      failure.addSuppressed(e);
    }
    return failure;
  }

  /**
   * Why the channel's replica does not start from a WAL written with a deeper window (an earlier
   * version derived up to 16 proposals of 10 MB), and the way out: drain it with the version that
   * wrote it. Emptying the WAL instead would let this node vote again, differently, on sequences it
   * voted on.
   */
  private String beyondWindow(WalBeyondWindowException e, Path walDir) {
    return "channel '"
        + ledger.name()
        + "': its replica cannot recover from its consensus WAL ("
        + walDir
        + "): "
        + e.getMessage()
        + " (an earlier version kept more proposals in flight; this one keeps "
        + e.window()
        + " at this channel's cap). Start the earlier version on this data, stop the clients'"
        + " load until every consenter's height stops growing, stop the consenters and start"
        + " this version again (orderer/docs/UPGRADE.md \"To the version whose windows hold 32"
        + " MiB of proposals\")";
  }

  private Replica recovered(ChannelConfig config, Member member, ConsensusLog.Opened log) {
    long epoch = config.blockNumber();
    if (epoch == 0) {
      return log.empty()
          ? Replica.start(member.config(), member.services())
          : Replica.recover(member.config(), member.services(), log.records());
    }
    Decision anchor = EpochAnchors.read(folders.of(epoch), epoch, archive(config, member));
    EpochAnchors.write(folders.of(epoch), anchor);
    // What the chain holds is never ordered again whatever the replica remembers: the ledger's tx
    // index answers that (OrderedTransactions), in this epoch as in the genesis one.
    return log.empty()
        ? Replica.start(member.config(), member.services(), anchor, Handover.NONE)
        : Replica.recover(member.config(), member.services(), anchor, Handover.NONE, log.records());
  }

  private Optional<Member> member(ChannelConfig config) {
    // By certificate or, after a renewal with the same key, by key.
    Optional<Consenter> self = config.consenters().withCertificate(node.identity().certificate());
    if (self.isEmpty()) {
      return Optional.empty();
    }
    int index = config.consenters().replicaIndex(self.get().id()).orElseThrow();
    ReplicaConfig replicaConfig =
        ChannelReplicas.replicaConfig(config, index, node.tick(), node.memory().budgets());
    ReplicaServices services =
        ChannelReplicas.services(
            config, proposals, self.get().id(), node.identity().signer(), node.provider());
    return Optional.of(
        new Member(index, replicaConfig, ChannelReplicas.wireLimits(replicaConfig), services));
  }

  private ConsensusLog.Opened open(long epoch, Member member) {
    return ConsensusLog.open(
        WalConfig.defaults(folders.of(epoch)), new WalRecordCodec(member.limits()), ledger::height);
  }

  private EpochReplica epochReplica(
      ChannelConfig config, Member member, Replica replica, ConsensusLog log) {
    return new EpochReplica(
        config.blockNumber(),
        config,
        member.index(),
        replica,
        log,
        new MessageCodec(member.limits()),
        ReplicaDirectory.fromMapping(config.consenters()),
        archive(config, member));
  }

  private LedgerDecisionArchive archive(ChannelConfig config, Member member) {
    return new LedgerDecisionArchive(
        ledger, config.consenters(), member.services().crypto(), sha256);
  }

  /**
   * Appends the decisions the WAL holds but the ledger does not (a crash after the decision was
   * logged, before its block was written): the ledger never lags the consensus log after start.
   * Stops after a config block that ends the epoch: what the epoch decided beyond it is discarded.
   *
   * @return whether such a config block was appended
   */
  private boolean catchUpLedger(WalReplay records, ChannelConfig epochConfig) {
    boolean[] epochEnded = {false};
    records.forEach(
        record -> {
          if (!epochEnded[0]
              && record instanceof WalRecord.Decided decided
              && decided.decision().sequence() == ledger.height()) {
            ledger.append(
                ProposalBlocks.signedBlock(decided.decision()).toByteArray(), Durability.SYNCED);
            epochEnded[0] = EpochRule.nextEpoch(epochConfig, decided.decision()).isPresent();
          }
        });
    return epochEnded[0];
  }
}
