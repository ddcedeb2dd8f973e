package io.rubinbft.orderer.configtx;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.orderer.config.GoDuration;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;
import org.hyperledger.fabric.protos.common.Capabilities;
import org.hyperledger.fabric.protos.common.Capability;
import org.hyperledger.fabric.protos.common.Config;
import org.hyperledger.fabric.protos.common.ConfigGroup;
import org.hyperledger.fabric.protos.common.ConfigPolicy;
import org.hyperledger.fabric.protos.common.ConfigValue;
import org.hyperledger.fabric.protos.common.OrdererAddresses;
import org.hyperledger.fabric.protos.orderer.BatchSize;
import org.hyperledger.fabric.protos.orderer.BatchTimeout;
import org.hyperledger.fabric.protos.orderer.ConsensusType;
import org.hyperledger.fabric.protos.orderer.smartbft.Options;
import org.hyperledger.fabric.protos.peer.AnchorPeer;
import org.hyperledger.fabric.protos.peer.AnchorPeers;

/**
 * Edits of a channel config as an operator makes them in the decoded config before {@code
 * configtxlator compute_update} ({@link ComputedUpdates}): each returns the whole config with one
 * element changed and leaves versions alone (the update computes them).
 */
public final class ConfigEdits {

  private static final String ORDERER = "Orderer";
  private static final String APPLICATION = "Application";

  private ConfigEdits() {}

  /** {@code /Channel/Orderer/BatchSize.MaxMessageCount}. */
  public static Config maxMessageCount(Config config, int count) {
    return editValue(
        config,
        List.of(ORDERER),
        "BatchSize",
        bytes ->
            parseBatchSize(bytes).toBuilder().setMaxMessageCount(count).build().toByteString());
  }

  /** {@code /Channel/Orderer/BatchTimeout}. */
  public static Config batchTimeout(Config config, Duration timeout) {
    return editValue(
        config,
        List.of(ORDERER),
        "BatchTimeout",
        bytes ->
            BatchTimeout.newBuilder()
                .setTimeout(GoDuration.format(timeout))
                .build()
                .toByteString());
  }

  /** {@code /Channel/Orderer/ConsensusType.State}: entering or leaving maintenance mode. */
  public static Config consensusState(Config config, ConsensusType.State state) {
    return editValue(
        config,
        List.of(ORDERER),
        "ConsensusType",
        bytes -> parseConsensusType(bytes).toBuilder().setState(state).build().toByteString());
  }

  /** {@code /Channel/Orderer/ConsensusType.Type}, metadata kept as is. */
  public static Config consensusType(Config config, String type) {
    return editValue(
        config,
        List.of(ORDERER),
        "ConsensusType",
        bytes -> parseConsensusType(bytes).toBuilder().setType(type).build().toByteString());
  }

  /** {@code /Channel/Orderer/ConsensusType.Metadata}'s SmartBFT request batch max count. */
  public static Config smartBftBatchMaxCount(Config config, long count) {
    return editValue(
        config,
        List.of(ORDERER),
        "ConsensusType",
        bytes -> {
          ConsensusType type = parseConsensusType(bytes);
          try {
            Options options = Options.parseFrom(type.getMetadata());
            return type.toBuilder()
                .setMetadata(
                    options.toBuilder().setRequestBatchMaxCount(count).build().toByteString())
                .build()
                .toByteString();
          } catch (InvalidProtocolBufferException e) {
            throw new IllegalArgumentException("SmartBFT options do not decode", e);
          }
        });
  }

  /** {@code /Channel/Orderer/Capabilities} replaced by {@code names}. */
  public static Config ordererCapabilities(Config config, List<String> names) {
    Capabilities.Builder capabilities = Capabilities.newBuilder();
    names.forEach(name -> capabilities.putCapabilities(name, Capability.getDefaultInstance()));
    return editValue(
        config, List.of(ORDERER), "Capabilities", bytes -> capabilities.build().toByteString());
  }

  /** {@code /Channel/Orderer/<org>/Endpoints}. */
  public static Config ordererEndpoints(Config config, String org, List<String> endpoints) {
    return editValue(
        config,
        List.of(ORDERER, org),
        "Endpoints",
        bytes -> OrdererAddresses.newBuilder().addAllAddresses(endpoints).build().toByteString());
  }

  /** {@code /Channel/Application/<org>/AnchorPeers}, added if the org had none. */
  public static Config anchorPeers(Config config, String org, List<AnchorPeer> peers) {
    ConfigValue value =
        ConfigValue.newBuilder()
            .setModPolicy("Admins")
            .setValue(AnchorPeers.newBuilder().addAllAnchorPeers(peers).build().toByteString())
            .build();
    return editGroup(
        config,
        List.of(APPLICATION, org),
        group -> {
          ConfigValue current = group.getValuesMap().get("AnchorPeers");
          return group.putValues(
              "AnchorPeers",
              current == null ? value : current.toBuilder().setValue(value.getValue()).build());
        });
  }

  /** {@code /Channel/Application/<name>} added: the group configtxgen -printOrg gives for it. */
  public static Config withApplicationOrg(Config config, String name, ConfigGroup org) {
    return editGroup(config, List.of(APPLICATION), group -> group.putGroups(name, org));
  }

  /** {@code /Channel/Application/<name>} removed. */
  public static Config withoutApplicationOrg(Config config, String name) {
    return editGroup(config, List.of(APPLICATION), group -> group.removeGroups(name));
  }

  /** {@code /Channel/Application/<org>/<policy>} replaced by {@code policy}. */
  public static Config orgPolicy(Config config, String org, String name, ConfigPolicy policy) {
    return editGroup(config, List.of(APPLICATION, org), group -> group.putPolicies(name, policy));
  }

  private static Config editValue(
      Config config, List<String> path, String name, UnaryOperator<ByteString> edit) {
    return editGroup(
        config,
        path,
        group -> {
          ConfigValue value = group.getValuesOrThrow(name);
          return group.putValues(
              name, value.toBuilder().setValue(edit.apply(value.getValue())).build());
        });
  }

  /** Applies {@code edit} to the group at {@code path} under /Channel. */
  private static Config editGroup(
      Config config, List<String> path, UnaryOperator<ConfigGroup.Builder> edit) {
    return config.toBuilder().setChannelGroup(edited(config.getChannelGroup(), path, edit)).build();
  }

  private static ConfigGroup edited(
      ConfigGroup group, List<String> path, UnaryOperator<ConfigGroup.Builder> edit) {
    if (path.isEmpty()) {
      return edit.apply(group.toBuilder()).build();
    }
    String child = path.getFirst();
    return group.toBuilder()
        .putGroups(child, edited(group.getGroupsOrThrow(child), path.subList(1, path.size()), edit))
        .build();
  }

  private static ConsensusType parseConsensusType(ByteString bytes) {
    try {
      return ConsensusType.parseFrom(bytes);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException("ConsensusType does not decode", e);
    }
  }

  private static BatchSize parseBatchSize(ByteString bytes) {
    try {
      return BatchSize.parseFrom(bytes);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException("BatchSize does not decode", e);
    }
  }
}
