package io.rubinbft.orderer.configtx;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.orderer.channel.ChannelConfig;
import org.hyperledger.fabric.protos.common.ConfigGroup;
import org.hyperledger.fabric.protos.common.ConfigUpdate;
import org.hyperledger.fabric.protos.orderer.ConsensusType;

/**
 * Fabric's MaintenanceFilter (orderer/common/msgprocessor/maintenancefilter.go) for a BFT-only
 * orderer: without the ConsensusTypeMigration orderer capability the state stays STATE_NORMAL; an
 * update that enters or leaves maintenance mode changes nothing but {@code
 * /Channel/Orderer/ConsensusType} (its write set holds that one value and nothing else), and not
 * its metadata (its bytes). The consensus type itself never changes here ({@code ConfigBlockReader}
 * accepts BFT only). The texts are Fabric's, after its "config update for existing channel did not
 * pass maintenance checks: config transaction inspection failed: ".
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
   * @param update the ConfigUpdate that turns {@code current} into {@code next}
   * @throws ConfigUpdateException (400) when Fabric's filter refuses the transition
   */
  static void check(ChannelConfig current, ChannelConfig next, ConfigUpdate update)
      throws ConfigUpdateException {
    ConsensusType.State from = state(current);
    ConsensusType.State to = state(next);
    if (!current.capabilities().consensusTypeMigration()) {
      if (to != ConsensusType.State.STATE_NORMAL) {
        throw refusal(
            "next config attempted to change ConsensusType.State to "
                + to
                + ", but capability is disabled");
      }
      return;
    }
    if (from == to) {
      return;
    }
    checkConsensusTypeChangeOnly(update.getWriteSet());
    if (!metadata(current).equals(metadata(next))) {
      throw refusal(
          "attempted to change ConsensusType.Metadata, but ConsensusType.State is changing from "
              + from
              + " to "
              + to);
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
    ByteString value =
        config
            .config()
            .getChannelGroup()
            .getGroupsOrThrow(ORDERER_GROUP)
            .getValuesOrThrow(CONSENSUS_TYPE)
            .getValue();
    try {
      return ConsensusType.parseFrom(value).getMetadata();
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
