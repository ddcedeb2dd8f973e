package io.rubinbft.orderer.channel;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.ledger.BlockHashing;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.BlockDataHashingStructure;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.Config;
import org.hyperledger.fabric.protos.common.ConfigEnvelope;
import org.hyperledger.fabric.protos.common.ConfigGroup;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.HashingAlgorithm;
import org.hyperledger.fabric.protos.common.HeaderType;
import org.hyperledger.fabric.protos.common.OrdererAddresses;
import org.hyperledger.fabric.protos.common.Orderers;
import org.hyperledger.fabric.protos.common.Payload;
import org.hyperledger.fabric.protos.orderer.ConsensusType;

/**
 * Reads a BFT channel's configuration from a config block: {@code Block -> Envelope -> Payload
 * (CONFIG) -> ConfigEnvelope -> Config}, checking everything this orderer relies on. Blocks come
 * from operators (channel join) and other nodes, so every problem is reported as an {@link
 * InvalidConfigException} naming the block, the channel and the field.
 */
public final class ConfigBlockReader {

  private static final String SHA256 = "SHA256";
  private static final long FULL_WIDTH = 0xFFFF_FFFFL;

  private ConfigBlockReader() {}

  /** Reads a marshalled {@code common.Block}, e.g. the body of a channel join request. */
  public static ChannelConfig read(byte[] blockBytes) throws InvalidConfigException {
    try {
      return read(Block.parseFrom(blockBytes));
    } catch (InvalidProtocolBufferException e) {
      throw new InvalidConfigException("config block is not a common.Block: " + e.getMessage(), e);
    }
  }

  public static ChannelConfig read(Block block) throws InvalidConfigException {
    long number = block.getHeader().getNumber();
    ChannelHeader channelHeader;
    ConfigEnvelope configEnvelope;
    try {
      Payload payload = configPayload(block);
      channelHeader =
          ConfigTree.decode(
              payload.getHeader().getChannelHeader(), "channel header", ChannelHeader.parser());
      checkHeader(channelHeader);
      configEnvelope =
          ConfigTree.decode(payload.getData(), "ConfigEnvelope", ConfigEnvelope.parser());
    } catch (IllegalArgumentException e) {
      throw new InvalidConfigException("config block " + number + ": " + e.getMessage(), e);
    }
    String channelId = channelHeader.getChannelId();
    try {
      return fromConfig(channelId, number, configEnvelope);
    } catch (IllegalArgumentException e) {
      throw new InvalidConfigException(
          "config block " + number + " for channel '" + channelId + "': " + e.getMessage(), e);
    }
  }

  /**
   * Validates {@code config} as the config a later config block of {@code channelId} would carry,
   * e.g. the result of a config update before it is ordered.
   *
   * @param blockNumber the number of the block that carries or will carry it
   */
  public static ChannelConfig readConfig(String channelId, long blockNumber, Config config)
      throws InvalidConfigException {
    try {
      return fromConfig(
          channelId, blockNumber, ConfigEnvelope.newBuilder().setConfig(config).build());
    } catch (IllegalArgumentException e) {
      throw new InvalidConfigException(String.valueOf(e.getMessage()), e);
    }
  }

  private static Payload configPayload(Block block) {
    int count = block.getData().getDataCount();
    if (count != 1) {
      throw new IllegalArgumentException(
          "block holds " + count + " envelopes but a config block holds exactly 1");
    }
    if (block.getMetadata().getMetadataCount() == 0) {
      throw new IllegalArgumentException("block has no metadata");
    }
    ByteString dataHash = ByteString.copyFrom(BlockHashing.dataHash(block.getData()));
    if (!block.getHeader().getDataHash().equals(dataHash)) {
      throw new IllegalArgumentException(
          "header data_hash is "
              + HexFormat.of().formatHex(block.getHeader().getDataHash().toByteArray())
              + " but the envelope hashes to "
              + HexFormat.of().formatHex(dataHash.toByteArray()));
    }
    Envelope envelope =
        ConfigTree.decode(block.getData().getData(0), "envelope", Envelope.parser());
    return ConfigTree.decode(envelope.getPayload(), "envelope payload", Payload.parser());
  }

  private static void checkHeader(ChannelHeader header) {
    if (header.getType() != HeaderType.CONFIG_VALUE) {
      HeaderType type = HeaderType.forNumber(header.getType());
      throw new IllegalArgumentException(
          "envelope type is "
              + (type == null ? String.valueOf(header.getType()) : type.name())
              + " but a config block's envelope is CONFIG");
    }
    if (header.getChannelId().isEmpty()) {
      throw new IllegalArgumentException("channel header has no channel id");
    }
  }

  private static ChannelConfig fromConfig(String channelId, long number, ConfigEnvelope envelope) {
    if (!envelope.hasConfig() || !envelope.getConfig().hasChannelGroup()) {
      throw new IllegalArgumentException("ConfigEnvelope has no config");
    }
    Config config = envelope.getConfig();
    ConfigGroup channel = config.getChannelGroup();
    checkChannelValues(channel);
    if (channel.getGroupsMap().containsKey("Consortiums")) {
      throw new IllegalArgumentException(
          "/Channel/Consortiums is present, but system channels are not supported");
    }
    ConfigGroup orderer = ConfigTree.group(channel, "/Channel", "Orderer");
    ConsensusType consensus = OrdererGroupReader.consensusType(orderer);
    Orderers orderers =
        ConfigTree.value(orderer, OrdererGroupReader.PATH, "Orderers", Orderers.parser());
    ConsenterMapping consenters = ConsenterReader.read(orderers);
    BftQuorumPolicy.check(
        OrdererGroupReader.blockValidation(orderer).getPolicy(),
        orderers,
        consenters.quorums().quorum());
    BatchLimits batch = OrdererGroupReader.batchLimits(orderer);
    var options = OrdererGroupReader.smartBftOptions(consensus);
    return new ChannelConfig(
        channelId,
        number,
        config.getSequence(),
        config,
        capabilities(channel, orderer),
        OrdererGroupReader.state(consensus),
        consenters,
        options,
        PbftSettings.from(options, batch),
        batch,
        OrdererGroupReader.batchTimeout(orderer),
        OrdererGroupReader.endpoints(orderer),
        ChannelConfig.BLOCK_VALIDATION_POLICY);
  }

  /**
   * {@link ChannelConfig#inMaintenance()} of a config tree that is not read whole, e.g. one whose
   * MSPs and policies are built alone.
   */
  public static boolean inMaintenance(Config config) {
    ConfigGroup orderer = ConfigTree.group(config.getChannelGroup(), "/Channel", "Orderer");
    ConsensusState state = OrdererGroupReader.state(OrdererGroupReader.consensusType(orderer));
    Capabilities capabilities =
        new Capabilities(Set.of(), names(orderer, OrdererGroupReader.PATH), Set.of());
    return state == ConsensusState.MAINTENANCE && capabilities.consensusTypeMigration();
  }

  private static void checkChannelValues(ConfigGroup channel) {
    String hashing =
        ConfigTree.value(channel, "/Channel", "HashingAlgorithm", HashingAlgorithm.parser())
            .getName();
    if (!hashing.equals(SHA256)) {
      throw new IllegalArgumentException(
          "HashingAlgorithm is '"
              + hashing
              + "' but this orderer only hashes with '"
              + SHA256
              + "'");
    }
    long width =
        Integer.toUnsignedLong(
            ConfigTree.value(
                    channel,
                    "/Channel",
                    "BlockDataHashingStructure",
                    BlockDataHashingStructure.parser())
                .getWidth());
    if (width != FULL_WIDTH) {
      throw new IllegalArgumentException(
          "BlockDataHashingStructure width is " + width + " but only " + FULL_WIDTH + " exists");
    }
    Optional<OrdererAddresses> global =
        ConfigTree.optionalValue(
            channel, "/Channel", "OrdererAddresses", OrdererAddresses.parser());
    if (global.isPresent() && global.get().getAddressesCount() > 0) {
      throw new IllegalArgumentException(
          "/Channel/OrdererAddresses is set but V3_0 channels list endpoints per orderer"
              + " organization only");
    }
  }

  private static Capabilities capabilities(ConfigGroup channel, ConfigGroup orderer) {
    Set<String> channelCaps = names(channel, "/Channel");
    Set<String> ordererCaps = names(orderer, OrdererGroupReader.PATH);
    Set<String> applicationCaps =
        names(ConfigTree.group(channel, "/Channel", "Application"), "/Channel/Application");
    requireKnown("channel", channelCaps, Capabilities.KNOWN_CHANNEL);
    requireKnown("orderer", ordererCaps, Capabilities.KNOWN_ORDERER);
    if (!channelCaps.contains(Capabilities.BFT_CHANNEL_CAPABILITY)) {
      throw new IllegalArgumentException(
          "channel capabilities are "
              + channelCaps
              + " but BFT needs "
              + Capabilities.BFT_CHANNEL_CAPABILITY);
    }
    return new Capabilities(channelCaps, ordererCaps, applicationCaps);
  }

  private static Set<String> names(ConfigGroup group, String path) {
    return ConfigTree.optionalValue(
            group, path, "Capabilities", org.hyperledger.fabric.protos.common.Capabilities.parser())
        .map(caps -> (Set<String>) new TreeSet<>(caps.getCapabilitiesMap().keySet()))
        .orElse(Set.of());
  }

  private static void requireKnown(String level, Set<String> names, Set<String> known) {
    for (String name : names) {
      if (!known.contains(name)) {
        throw new IllegalArgumentException(
            level
                + " capability '"
                + name
                + "' is not supported (known: "
                + new TreeSet<>(known)
                + ")");
      }
    }
  }
}
