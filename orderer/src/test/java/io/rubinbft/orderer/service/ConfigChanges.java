package io.rubinbft.orderer.service;

import io.rubinbft.orderer.crypto.Fixtures;
import io.rubinbft.orderer.msp.ChannelMsps;
import io.rubinbft.orderer.msp.MspConfigException;
import io.rubinbft.orderer.policy.GenesisChannel;
import io.rubinbft.orderer.policy.PolicyConfigException;
import io.rubinbft.orderer.validation.ChannelRules;
import org.hyperledger.fabric.protos.common.Config;
import org.hyperledger.fabric.protos.common.ConfigGroup;

/** Channel configs that differ from the genesis config, as a config block would install them. */
final class ConfigChanges {

  private ConfigChanges() {}

  /**
   * The genesis config without Org1's Readers policy: Org1's users read no more. (Removing the
   * whole org would not do: an ImplicitMeta policy over no sub-groups is satisfied.)
   */
  static ChannelRules withoutOrg1Readers() {
    Config genesis = Fixtures.genesisConfig();
    ConfigGroup channel = genesis.getChannelGroup();
    ConfigGroup application = channel.getGroupsOrThrow("Application");
    ConfigGroup org1 =
        application.getGroupsOrThrow("Org1").toBuilder().removePolicies("Readers").build();
    application = application.toBuilder().putGroups("Org1", org1).build();
    Config changed =
        genesis.toBuilder()
            .setChannelGroup(channel.toBuilder().putGroups("Application", application))
            .build();
    try {
      return ChannelRules.fromConfig(
          changed,
          GenesisChannel.PROVIDER,
          ServiceNode.ABSOLUTE_MAX_BYTES,
          ChannelMsps.DEFAULT_CACHE_CAPACITY);
    } catch (MspConfigException | PolicyConfigException e) {
      throw new IllegalStateException(e);
    }
  }
}
