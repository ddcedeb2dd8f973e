package io.rubinbft.orderer.node;

import com.google.protobuf.ByteString;
import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.ledger.Durability;
import io.rubinbft.ledger.StoredBlock;
import io.rubinbft.net.PeerAuthenticator;
import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.channel.ConfigBlockReader;
import io.rubinbft.orderer.channel.InvalidConfigException;
import io.rubinbft.orderer.channel.NotAConsenterException;
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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.Envelope;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The channels this node serves. Orderers start with none, as Fabric v3's do; joining with a
 * channel's genesis block creates its ledger and replica, and a restart resumes every channel the
 * block store holds. Removing a channel deletes its ledger and consensus WAL.
 */
public final class ChannelRegistry implements ChannelParticipation, Channels, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ChannelRegistry.class);

  private final Map<String, ChannelRuntime> channels = new ConcurrentSkipListMap<>();
  private NodeContext node;

  /** Starts every channel the node's block store holds. Call once, before serving requests. */
  public synchronized void start(NodeContext context) throws InvalidConfigException {
    this.node = context;
    for (String name : context.store().channelNames()) {
      ChannelLedger ledger = context.store().channel(name).orElseThrow();
      channels.put(name, ChannelRuntime.start(context, ledger));
      LOG.info("resumed channel {} at height {}", name, ledger.height());
    }
  }

  @Override
  public Optional<ServedChannel> channel(String name) {
    return Optional.ofNullable(channels.get(name));
  }

  /** The runtime of channel {@code name}, if this node serves it. */
  public Optional<ChannelRuntime> runtime(String name) {
    return Optional.ofNullable(channels.get(name));
  }

  /**
   * Admits a replica peer while it is a consenter (by TLS certificate) of a channel served here.
   */
  public PeerAuthenticator peerAuthenticator() {
    return certificate ->
        channels.values().stream().anyMatch(c -> c.isConsenterCertificate(certificate))
            ? Optional.empty()
            : Optional.of("not a consenter of any channel this node serves");
  }

  @Override
  public List<String> channelNames() {
    return List.copyOf(channels.keySet());
  }

  @Override
  public Optional<ChannelInfo> info(String name) {
    return runtime(name)
        .map(
            c ->
                new ChannelInfo(
                    name, ChannelInfo.url(name), relation(c), "active", c.ledger().height()));
  }

  /** Fabric's consensusRelation: a consenter of the channel's current epoch, or a follower. */
  private static String relation(ChannelRuntime runtime) {
    return runtime.consenter() ? "consenter" : "follower";
  }

  @Override
  public synchronized ChannelInfo join(Block configBlock, byte[] configBlockBytes)
      throws ParticipationException {
    ChannelConfig config = joinable(configBlock);
    String name = config.channelId();
    if (channels.containsKey(name) || node.store().channel(name).isPresent()) {
      throw new ParticipationException(Reason.ALREADY_EXISTS, "channel already exists");
    }
    ChannelLedger ledger = node.store().createChannel(name);
    try {
      ledger.append(configBlockBytes, Durability.SYNCED);
      channels.put(name, ChannelRuntime.start(node, ledger));
    } catch (InvalidConfigException | RuntimeException e) {
      discard(name);
      throw new ParticipationException(
          e instanceof InvalidConfigException ? Reason.BAD_REQUEST : Reason.INTERNAL,
          e.getMessage());
    }
    LOG.info("joined channel {} as consenter", name);
    return info(name).orElseThrow();
  }

  /**
   * Fabric's UpdateChannel: the update passes the Broadcast checks (size, /Channel/Writers) and the
   * config update processing; the answer carries the height before the config block is written.
   */
  @Override
  public ChannelInfo update(String name, Envelope update) throws ParticipationException {
    ChannelRuntime runtime = channels.get(name);
    if (runtime == null) {
      throw new ParticipationException(Reason.NOT_A_CHANNEL, "channel does not exist");
    }
    long height = runtime.ledger().height();
    String failed = "failed update config of channel " + name + ": ";
    BroadcastValidator validator =
        BroadcastValidator.forClients(channel -> Optional.of(runtime.rules()), node.clock());
    if (validator.validate(update) instanceof BroadcastResult.Rejected rejected) {
      throw new ParticipationException(
          Reason.BAD_REQUEST,
          failed
              + "config update for existing channel did not pass initial checks: "
              + rejected.verdict().info());
    }
    SubmitOutcome outcome = runtime.submitConfigUpdate(update);
    if (!(outcome instanceof SubmitOutcome.Accepted)) {
      throw new ParticipationException(Reason.BAD_REQUEST, failed + outcome.info());
    }
    return new ChannelInfo(name, ChannelInfo.url(name), relation(runtime), "active", height);
  }

  @Override
  public ByteString block(String name, BlockId block) throws ParticipationException {
    ChannelRuntime runtime = channels.get(name);
    if (runtime == null) {
      throw new ParticipationException(Reason.NOT_FOUND, "channel does not exist");
    }
    ChannelLedger ledger = runtime.ledger();
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
    ChannelRuntime runtime = channels.remove(name);
    if (runtime == null) {
      throw new ParticipationException(Reason.NOT_FOUND, "channel does not exist");
    }
    runtime.close();
    discard(name);
    LOG.info("removed channel {}", name);
  }

  @Override
  public synchronized void close() {
    channels.values().forEach(ChannelRuntime::close);
    channels.clear();
  }

  private ChannelConfig joinable(Block configBlock) throws ParticipationException {
    ChannelConfig config;
    try {
      config = ConfigBlockReader.read(configBlock);
    } catch (InvalidConfigException e) {
      throw new ParticipationException(Reason.BAD_REQUEST, e.getMessage());
    }
    if (config.blockNumber() != 0) {
      // A node joining later needs the blocks before the config block: state transfer from the
      // ledger, a later issue. Fabric's followers do the same catching up.
      throw new ParticipationException(
          Reason.BAD_REQUEST,
          "joining with config block "
              + config.blockNumber()
              + " is not supported yet: join with the channel's genesis block");
    }
    try {
      config.thisNode(node.identity().certificate());
    } catch (NotAConsenterException e) {
      throw new ParticipationException(Reason.BAD_REQUEST, e.getMessage());
    }
    return config;
  }

  /** Removes whatever a channel left: its ledger and its WAL folder. */
  private void discard(String name) {
    if (node.store().channel(name).isPresent()) {
      node.store().removeChannel(name);
    }
    EpochFolders.deleteTree(node.walRoot().resolve(name));
  }
}
