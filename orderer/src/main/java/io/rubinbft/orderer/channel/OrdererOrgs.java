package io.rubinbft.orderer.channel;

import com.google.protobuf.InvalidProtocolBufferException;
import java.util.Set;
import java.util.TreeSet;
import org.hyperledger.fabric.protos.common.Config;
import org.hyperledger.fabric.protos.common.ConfigGroup;
import org.hyperledger.fabric.protos.common.ConfigValue;
import org.hyperledger.fabric.protos.msp.FabricMSPConfig;
import org.hyperledger.fabric.protos.msp.MSPConfig;

/**
 * The orderer organizations of a channel config: the groups under {@code /Channel/Orderer}, by
 * their MSP IDs, whether or not any of their nodes is a consenter yet.
 */
public final class OrdererOrgs {

  private OrdererOrgs() {}

  /**
   * The MSP IDs of {@code config}'s orderer organizations.
   *
   * @throws IllegalArgumentException when an org's MSP value is missing or does not decode
   */
  public static Set<String> mspIds(Config config) {
    Set<String> names = new TreeSet<>();
    ConfigGroup orderer = config.getChannelGroup().getGroupsOrThrow("Orderer");
    for (ConfigGroup org : orderer.getGroupsMap().values()) {
      ConfigValue value = org.getValuesOrThrow("MSP");
      try {
        names.add(
            FabricMSPConfig.parseFrom(MSPConfig.parseFrom(value.getValue()).getConfig()).getName());
      } catch (InvalidProtocolBufferException e) {
        throw new IllegalArgumentException("an orderer org's MSP value does not decode", e);
      }
    }
    return names;
  }
}
