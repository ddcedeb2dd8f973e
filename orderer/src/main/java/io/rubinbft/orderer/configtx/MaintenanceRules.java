package io.rubinbft.orderer.configtx;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.orderer.channel.ChannelConfig;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.Config;
import org.hyperledger.fabric.protos.common.ConfigGroup;
import org.hyperledger.fabric.protos.common.ConfigUpdate;
import org.hyperledger.fabric.protos.orderer.ConsensusType;

/**
 * Fabric's MaintenanceFilter (orderer/common/msgprocessor/maintenancefilter.go) for a BFT-only
 * orderer: without the ConsensusTypeMigration orderer capability the state stays STATE_NORMAL and
 * the type BFT; an update that enters or leaves maintenance mode changes nothing but {@code
 * /Channel/Orderer/ConsensusType} (its write set holds that one value and nothing else), and not
 * its type or metadata; a type change needs maintenance mode on both sides and is then refused as
 * Fabric v3 refuses every target but BFT. The texts are Fabric's, after its "config update for
 * existing channel did not pass maintenance checks: config transaction inspection failed: ".
 */
final class MaintenanceRules {

  static final String PREFIX =
      "config update for existing channel did not pass maintenance checks: "
          + "config transaction inspection failed: ";

  private static final String CHANNEL_GROUP = "Channel";
  private static final String ORDERER_GROUP = "Orderer";
  private static final String CONSENSUS_TYPE = "ConsensusType";

  private MaintenanceRules() {}

  /**
   * The next config's {@code /Channel/Orderer/ConsensusType} read from its tree, before the config
   * is parsed as one this orderer runs (which refuses any type but BFT, in other words than
   * Fabric's filter); empty when it is missing or does not decode, which parsing reports.
   */
  static Optional<ConsensusType> consensusType(Config next) {
    ConfigGroup orderer = next.getChannelGroup().getGroupsMap().get(ORDERER_GROUP);
    if (orderer == null || !orderer.getValuesMap().containsKey(CONSENSUS_TYPE)) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          ConsensusType.parseFrom(orderer.getValuesMap().get(CONSENSUS_TYPE).getValue()));
    } catch (InvalidProtocolBufferException e) {
      return Optional.empty();
    }
  }

  /** Whether {@code next} names a consensus type other than the one every channel here runs. */
  static boolean changesType(ChannelConfig current, ConsensusType next) {
    return !type(current).equals(next.getType());
  }

  /**
   * @param next the next config's ConsensusType ({@link #consensusType})
   * @param update the ConfigUpdate that turns {@code current} into the next config
   * @throws ConfigUpdateException (400) when Fabric's filter refuses the transition
   */
  static void check(ChannelConfig current, ConsensusType next, ConfigUpdate update)
      throws ConfigUpdateException {
    ConsensusType.State from = state(current);
    ConsensusType.State to = next.getState();
    String fromType = type(current);
    String toType = next.getType();
    if (!current.capabilities().consensusTypeMigration()) {
      if (to != ConsensusType.State.STATE_NORMAL) {
        throw refusal(
            "next config attempted to change ConsensusType.State to "
                + to
                + ", but capability is disabled");
      }
      if (!fromType.equals(toType)) {
        throw refusal(
            "next config attempted to change ConsensusType.Type from "
                + fromType
                + " to "
                + toType
                + ", but capability is disabled");
      }
      return;
    }
    if (from != to) {
      checkConsensusTypeChangeOnly(update.getWriteSet());
      if (!fromType.equals(toType)) {
        throw refusal(
            "attempted to change ConsensusType.Type from "
                + fromType
                + " to "
                + toType
                + ", but ConsensusType.State is changing from "
                + from
                + " to "
                + to);
      }
      if (!metadata(current).equals(next.getMetadata())) {
        throw refusal(
            "attempted to change ConsensusType.Metadata, but ConsensusType.State is changing from "
                + from
                + " to "
                + to);
      }
    }
    if (!fromType.equals(toType)) {
      String change = "attempted to change consensus type from " + fromType + " to " + toType;
      if (from == ConsensusType.State.STATE_NORMAL) {
        throw refusal(
            change + ", but current config ConsensusType.State is not in maintenance mode");
      }
      if (to == ConsensusType.State.STATE_NORMAL) {
        throw refusal(change + ", but next config ConsensusType.State is not in maintenance mode");
      }
      // Fabric v3 permits BFT as the only target, and every channel here already runs it.
      throw refusal(change + ", transition not supported");
    }
  }

  /** Fabric's ensureConsensusTypeChangeOnly, on the update's write set. */
  private static void checkConsensusTypeChangeOnly(ConfigGroup writeSet)
      throws ConfigUpdateException {
    if (writeSet.getGroupsCount() == 0) {
      throw refusal("config update contains no changes");
    }
    if (writeSet.getValuesCount() > 0) {
      throw refusal("config update contains changes to values in group " + CHANNEL_GROUP);
    }
    if (writeSet.getGroupsCount() > 1) {
      throw refusal("config update contains changes to more than one group");
    }
    ConfigGroup orderer = writeSet.getGroupsMap().get(ORDERER_GROUP);
    if (orderer == null) {
      throw refusal("update does not contain the " + ORDERER_GROUP + " group");
    }
    if (orderer.getGroupsCount() > 0) {
      throw refusal(
          "config update contains changes to groups within the " + ORDERER_GROUP + " group");
    }
    if (!orderer.getValuesMap().containsKey(CONSENSUS_TYPE)) {
      throw refusal("config update does not contain the " + CONSENSUS_TYPE + " value");
    }
    if (orderer.getValuesCount() > 1) {
      throw refusal(
          "config update contain more then just the "
              + CONSENSUS_TYPE
              + " value in the "
              + ORDERER_GROUP
              + " group");
    }
  }

  private static ByteString metadata(ChannelConfig config) {
    return currentType(config).getMetadata();
  }

  private static String type(ChannelConfig config) {
    return currentType(config).getType();
  }

  private static ConsensusType currentType(ChannelConfig config) {
    ByteString value =
        config
            .config()
            .getChannelGroup()
            .getGroupsOrThrow(ORDERER_GROUP)
            .getValuesOrThrow(CONSENSUS_TYPE)
            .getValue();
    try {
      return ConsensusType.parseFrom(value);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("a ConsensusType that was read does not decode", e);
    }
  }

  private static ConsensusType.State state(ChannelConfig config) {
    return switch (config.consensusState()) {
      case NORMAL -> ConsensusType.State.STATE_NORMAL;
      case MAINTENANCE -> ConsensusType.State.STATE_MAINTENANCE;
    };
  }

  private static ConfigUpdateException refusal(String message) {
    return ConfigUpdateException.badRequest(PREFIX + message);
  }
}
