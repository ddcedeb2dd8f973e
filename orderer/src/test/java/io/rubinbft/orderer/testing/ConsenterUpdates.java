package io.rubinbft.orderer.testing;

import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.bft.Quorums;
import io.rubinbft.orderer.channel.BftQuorumPolicy;
import java.util.List;
import java.util.function.UnaryOperator;
import org.hyperledger.fabric.protos.common.Config;
import org.hyperledger.fabric.protos.common.ConfigGroup;
import org.hyperledger.fabric.protos.common.ConfigPolicy;
import org.hyperledger.fabric.protos.common.ConfigUpdate;
import org.hyperledger.fabric.protos.common.ConfigValue;
import org.hyperledger.fabric.protos.common.Consenter;
import org.hyperledger.fabric.protos.common.Orderers;

/**
 * The CONFIG_UPDATE an operator writes to change a BFT channel's consenters: the ConsenterMapping
 * ({@code /Channel/Orderer/Orderers}) and, with it, the BlockValidation policy over the new set, as
 * Fabric's reconfiguration tutorial has them edit both.
 */
public final class ConsenterUpdates {

  private ConsenterUpdates() {}

  /** The consenters of {@code config}'s mapping, in mapping order. */
  public static List<Consenter> consenters(Config config) {
    return orderers(config).getConsenterMappingList();
  }

  /** The update that replaces the consenters of {@code current} by {@code change}'s result. */
  public static ConfigUpdate update(
      String channel, Config current, UnaryOperator<List<Consenter>> change) {
    ConfigGroup orderer = current.getChannelGroup().getGroupsOrThrow("Orderer");
    Orderers next =
        Orderers.newBuilder().addAllConsenterMapping(change.apply(consenters(current))).build();
    ConfigValue value = orderer.getValuesOrThrow("Orderers");
    ConfigPolicy policy = orderer.getPoliciesOrThrow("BlockValidation");
    ConfigGroup.Builder write =
        ConfigGroup.newBuilder()
            .setVersion(orderer.getVersion())
            .putValues(
                "Orderers",
                value.toBuilder()
                    .setVersion(value.getVersion() + 1)
                    .setValue(next.toByteString())
                    .build());
    var quorumPolicy =
        BftQuorumPolicy.expected(next, new Quorums(next.getConsenterMappingCount()).quorum());
    if (!quorumPolicy.equals(policy.getPolicy())) {
      write.putPolicies(
          "BlockValidation",
          policy.toBuilder().setVersion(policy.getVersion() + 1).setPolicy(quorumPolicy).build());
    }
    return ConfigUpdate.newBuilder()
        .setChannelId(channel)
        .setReadSet(
            ConfigGroup.newBuilder()
                .putGroups(
                    "Orderer", ConfigGroup.newBuilder().setVersion(orderer.getVersion()).build()))
        .setWriteSet(ConfigGroup.newBuilder().putGroups("Orderer", write.build()))
        .build();
  }

  private static Orderers orderers(Config config) {
    try {
      return Orderers.parseFrom(
          config
              .getChannelGroup()
              .getGroupsOrThrow("Orderer")
              .getValuesOrThrow("Orderers")
              .getValue());
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(e);
    }
  }
}
