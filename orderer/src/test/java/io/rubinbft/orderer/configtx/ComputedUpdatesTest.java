package io.rubinbft.orderer.configtx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.crypto.Fixtures;
import io.rubinbft.orderer.tools.bootstrap.SignaturePolicies;
import java.util.List;
import org.hyperledger.fabric.protos.common.Config;
import org.hyperledger.fabric.protos.common.ConfigEnvelope;
import org.hyperledger.fabric.protos.common.ConfigGroup;
import org.hyperledger.fabric.protos.common.ConfigPolicy;
import org.hyperledger.fabric.protos.common.ConfigUpdate;
import org.hyperledger.fabric.protos.common.MSPRole.MSPRoleType;
import org.junit.jupiter.api.Test;

/**
 * {@link ComputedUpdates} against Fabric's {@code configtxlator compute_update}: the same
 * ConfigUpdates as the fixtures recorded, and updates that our config update path applies to give
 * exactly the config they were computed from.
 */
class ComputedUpdatesTest {

  private static final ChannelConfig GENESIS = FixtureConfigs.config(0);
  private static final ChannelConfig AFTER_BATCH_SIZE = FixtureConfigs.config(6);

  @Test
  void theBatchSizeChangeIsComputedAsConfigtxlatorComputedIt() throws Exception {
    ConfigUpdate fabric =
        ConfigUpdate.parseFrom(Fixtures.bytes("config-update/batchsize-update.configupdate.pb"));

    assertThat(ComputedUpdates.compute("fixture", GENESIS.config(), AFTER_BATCH_SIZE.config()))
        .isEqualTo(fabric);
  }

  @Test
  void theAnchorPeerChangeIsComputedAsConfigtxlatorComputedIt() throws Exception {
    ConfigUpdate fabric =
        ConfigUpdate.parseFrom(Fixtures.bytes("config-update/anchorpeer-update.configupdate.pb"));

    assertThat(
            ComputedUpdates.compute(
                "fixture", AFTER_BATCH_SIZE.config(), FixtureConfigs.config(7).config()))
        .isEqualTo(fabric);
  }

  @Test
  void aChangedPolicyIsAppliedAsComputed() throws Exception {
    ConfigPolicy adminsOnly =
        ConfigPolicy.newBuilder()
            .setModPolicy("Admins")
            .setPolicy(
                SignaturePolicies.signature(
                    SignaturePolicies.anyOf("Org1MSP", List.of(MSPRoleType.ADMIN))))
            .build();
    Config wanted = editOrg1(GENESIS.config(), org1 -> org1.putPolicies("Writers", adminsOnly));

    ConfigEnvelope applied = apply(GENESIS, wanted);

    assertThat(org1(applied.getConfig()).getPoliciesOrThrow("Writers"))
        .isEqualTo(adminsOnly.toBuilder().setVersion(1).build());
    assertThat(org1(applied.getConfig()).getVersion()).isZero();
  }

  @Test
  void aRemovedValueReshapesItsGroup() throws Exception {
    Config wanted = editOrg1(AFTER_BATCH_SIZE.config(), org1 -> org1.removeValues("AnchorPeers"));

    ConfigEnvelope applied = apply(AFTER_BATCH_SIZE, wanted);

    assertThat(org1(applied.getConfig()).getValuesMap()).containsOnlyKeys("MSP");
    assertThat(org1(applied.getConfig()).getVersion()).isEqualTo(1);
    assertThat(org1(applied.getConfig()).getValuesOrThrow("MSP"))
        .isEqualTo(org1(AFTER_BATCH_SIZE.config()).getValuesOrThrow("MSP"));
  }

  @Test
  void identicalConfigsHaveNoUpdate() {
    assertThatThrownBy(() -> ComputedUpdates.compute("fixture", GENESIS.config(), GENESIS.config()))
        .hasMessage("no differences detected between original and updated config");
  }

  /** Computes the update to {@code wanted}, signs it as Org1's admin, and applies it. */
  private static ConfigEnvelope apply(ChannelConfig current, Config wanted)
      throws ConfigUpdateException {
    ConfigUpdate update = ComputedUpdates.compute("fixture", current.config(), wanted);
    return FixtureConfigs.processor(current)
        .propose(SignedUpdates.signed(update, List.of(SignedUpdates.ORG1_ADMIN)));
  }

  private interface OrgEdit {
    void edit(ConfigGroup.Builder org);
  }

  private static Config editOrg1(Config config, OrgEdit edit) {
    ConfigGroup.Builder channel = config.getChannelGroup().toBuilder();
    ConfigGroup.Builder application = channel.getGroupsOrThrow("Application").toBuilder();
    ConfigGroup.Builder org1 = application.getGroupsOrThrow("Org1").toBuilder();
    edit.edit(org1);
    application.putGroups("Org1", org1.build());
    channel.putGroups("Application", application.build());
    return config.toBuilder().setChannelGroup(channel).build();
  }

  private static ConfigGroup org1(Config config) {
    return config.getChannelGroup().getGroupsOrThrow("Application").getGroupsOrThrow("Org1");
  }
}
