package io.rubinbft.orderer.channel;

import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.orderer.config.GoDuration;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.hyperledger.fabric.protos.common.ConfigGroup;
import org.hyperledger.fabric.protos.common.ConfigPolicy;
import org.hyperledger.fabric.protos.common.OrdererAddresses;
import org.hyperledger.fabric.protos.orderer.BatchSize;
import org.hyperledger.fabric.protos.orderer.BatchTimeout;
import org.hyperledger.fabric.protos.orderer.ConsensusType;
import org.hyperledger.fabric.protos.orderer.smartbft.Options;

/** Reads the values of {@code /Channel/Orderer} that a BFT orderer runs by. */
final class OrdererGroupReader {

  static final String PATH = "/Channel/Orderer";
  static final String BFT = "BFT";

  private OrdererGroupReader() {}

  static ConsensusType consensusType(ConfigGroup orderer) {
    ConsensusType type = ConfigTree.value(orderer, PATH, "ConsensusType", ConsensusType.parser());
    if (!type.getType().equals(BFT)) {
      throw new IllegalArgumentException(
          "ConsensusType is '" + type.getType() + "' but this orderer only runs '" + BFT + "'");
    }
    if (type.getState() == ConsensusType.State.UNRECOGNIZED) {
      throw new IllegalArgumentException(
          "ConsensusType state is " + type.getStateValue() + ", neither normal nor maintenance");
    }
    return type;
  }

  static ConsensusState state(ConsensusType type) {
    return type.getState() == ConsensusType.State.STATE_MAINTENANCE
        ? ConsensusState.MAINTENANCE
        : ConsensusState.NORMAL;
  }

  static Options smartBftOptions(ConsensusType type) {
    try {
      return Options.parseFrom(type.getMetadata());
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(
          "ConsensusType metadata is not orderer.smartbft.Options: " + e.getMessage(), e);
    }
  }

  static BatchLimits batchLimits(ConfigGroup orderer) {
    BatchSize size = ConfigTree.value(orderer, PATH, "BatchSize", BatchSize.parser());
    try {
      return new BatchLimits(
          intCount(size.getMaxMessageCount()),
          Integer.toUnsignedLong(size.getAbsoluteMaxBytes()),
          Integer.toUnsignedLong(size.getPreferredMaxBytes()));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(PATH + "/BatchSize: " + e.getMessage(), e);
    }
  }

  private static int intCount(int uint32) {
    // uint32 in the proto; a count beyond 2^31-1 can never fit a block anyway.
    return uint32 < 0 ? Integer.MAX_VALUE : uint32;
  }

  static Duration batchTimeout(ConfigGroup orderer) {
    BatchTimeout timeout = ConfigTree.value(orderer, PATH, "BatchTimeout", BatchTimeout.parser());
    try {
      Duration duration = GoDuration.parse(timeout.getTimeout());
      if (duration.isZero()) {
        throw new IllegalArgumentException("must be greater than 0");
      }
      return duration;
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(PATH + "/BatchTimeout: " + e.getMessage(), e);
    }
  }

  /**
   * Each orderer organization's endpoints ("host:port"), by organization name. As in Fabric v3 with
   * BFT, every organization must list at least one.
   */
  static Map<String, List<String>> endpoints(ConfigGroup orderer) {
    Map<String, List<String>> endpoints = new LinkedHashMap<>();
    for (Map.Entry<String, ConfigGroup> org : new TreeMap<>(orderer.getGroupsMap()).entrySet()) {
      String orgPath = PATH + "/" + org.getKey();
      List<String> addresses =
          ConfigTree.optionalValue(org.getValue(), orgPath, "Endpoints", OrdererAddresses.parser())
              .map(value -> List.copyOf(value.getAddressesList()))
              .orElse(List.of());
      if (addresses.isEmpty()) {
        throw new IllegalArgumentException(
            orgPath
                + "/Endpoints is empty but every orderer organization of a BFT channel needs"
                + " endpoints");
      }
      addresses.forEach(address -> checkAddress(orgPath, address));
      endpoints.put(org.getKey(), List.copyOf(addresses));
    }
    return endpoints;
  }

  private static void checkAddress(String orgPath, String address) {
    int colon = address.lastIndexOf(':');
    boolean valid = colon > 0;
    if (valid) {
      try {
        int port = Integer.parseInt(address.substring(colon + 1));
        valid = port > 0 && port <= 65535;
      } catch (NumberFormatException e) {
        valid = false;
      }
    }
    if (!valid) {
      throw new IllegalArgumentException(
          orgPath + "/Endpoints has '" + address + "' but endpoints are 'host:port'");
    }
  }

  static ConfigPolicy blockValidation(ConfigGroup orderer) {
    ConfigPolicy policy = orderer.getPoliciesMap().get("BlockValidation");
    if (policy == null) {
      throw new IllegalArgumentException(ChannelConfig.BLOCK_VALIDATION_POLICY + " is missing");
    }
    return policy;
  }
}
