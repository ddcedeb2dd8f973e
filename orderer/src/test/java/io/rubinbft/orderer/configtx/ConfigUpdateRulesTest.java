package io.rubinbft.orderer.configtx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.channel.ConfigBlockReader;
import io.rubinbft.orderer.identity.SigningIdentity;
import io.rubinbft.orderer.msp.TestCa;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.hyperledger.fabric.protos.common.Config;
import org.hyperledger.fabric.protos.common.ConfigEnvelope;
import org.hyperledger.fabric.protos.common.ConfigGroup;
import org.hyperledger.fabric.protos.common.ConfigUpdate;
import org.hyperledger.fabric.protos.common.ConfigValue;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.msp.FabricMSPConfig;
import org.hyperledger.fabric.protos.msp.MSPConfig;
import org.hyperledger.fabric.protos.orderer.BatchSize;
import org.junit.jupiter.api.Test;

/** Fabric's config update rules on updates we build and sign with the fixture's real admins. */
class ConfigUpdateRulesTest {

  private static final ChannelConfig GENESIS = FixtureConfigs.config(0);
  private static final String PREFIX =
      "error applying config update to existing channel 'fixture': error authorizing update: ";
  private static final ConfigGroup ORDERER =
      GENESIS.config().getChannelGroup().getGroupsOrThrow("Orderer");

  /**
   * Read set /Channel{Orderer} at {@code ordererVersion}, write set the same with value {@code
   * name} set to {@code value}.
   */
  private static ConfigUpdate ordererValues(long ordererVersion, String name, ConfigValue value) {
    ConfigGroup read =
        ConfigGroup.newBuilder()
            .putGroups("Orderer", ConfigGroup.newBuilder().setVersion(ordererVersion).build())
            .build();
    ConfigGroup write =
        ConfigGroup.newBuilder()
            .putGroups(
                "Orderer",
                ConfigGroup.newBuilder().setVersion(ordererVersion).putValues(name, value).build())
            .build();
    return ConfigUpdate.newBuilder()
        .setChannelId("fixture")
        .setReadSet(read)
        .setWriteSet(write)
        .build();
  }

  private static ConfigValue batchSize(int maxMessageCount, long version) {
    BatchSize current = parse(ORDERER.getValuesOrThrow("BatchSize"));
    return ORDERER.getValuesOrThrow("BatchSize").toBuilder()
        .setVersion(version)
        .setValue(current.toBuilder().setMaxMessageCount(maxMessageCount).build().toByteString())
        .build();
  }

  private static BatchSize parse(ConfigValue value) {
    try {
      return BatchSize.parseFrom(value.getValue());
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(e);
    }
  }

  private static ConfigEnvelope propose(ConfigUpdate update, SigningIdentity... signers)
      throws ConfigUpdateException {
    return FixtureConfigs.processor(GENESIS)
        .propose(SignedUpdates.signed(update, List.of(signers)));
  }

  private static void assertRefused(ConfigUpdate update, String message) {
    assertThatThrownBy(() -> propose(update, SignedUpdates.ORDERER_ADMIN))
        .isInstanceOfSatisfying(
            ConfigUpdateException.class,
            e -> {
              assertThat(e.status()).isEqualTo(Status.BAD_REQUEST);
              assertThat(e.getMessage()).isEqualTo(message);
            });
  }

  @Test
  void aReadSetAtAnotherVersionIsRefused() {
    assertRefused(
        ordererValues(3, "BatchSize", batchSize(20, 1)),
        PREFIX
            + "error validating ReadSet: proposed update requires that key [Group] "
            + " /Channel/Orderer be at version 3, but it is currently at version 0");
  }

  @Test
  void anUnknownElementInTheReadSetIsRefused() {
    ConfigUpdate update =
        ConfigUpdate.newBuilder()
            .setChannelId("fixture")
            .setReadSet(
                ConfigGroup.newBuilder().putGroups("Nowhere", ConfigGroup.getDefaultInstance()))
            .setWriteSet(ConfigGroup.getDefaultInstance())
            .build();

    assertRefused(
        update,
        PREFIX
            + "error validating ReadSet: existing config does not contain element for [Group] "
            + " /Channel/Nowhere but was in the read set");
  }

  @Test
  void aNewElementMustStartAtVersionZero() {
    assertRefused(
        ordererValues(
            0,
            "NoSuchValue",
            ConfigValue.newBuilder().setVersion(1).setModPolicy("Admins").build()),
        PREFIX
            + "error validating DeltaSet: attempted to set key [Value]  /Channel/Orderer/NoSuchValue"
            + " to version 1, but key does not exist");
  }

  @Test
  void anUpdateThatChangesNothingIsRefused() {
    ConfigUpdate update =
        ConfigUpdate.newBuilder()
            .setChannelId("fixture")
            .setReadSet(ConfigGroup.getDefaultInstance())
            .setWriteSet(ConfigGroup.getDefaultInstance())
            .build();

    assertRefused(
        update,
        PREFIX + "error validating DeltaSet: delta set was empty -- update would have no effect");
  }

  @Test
  void anUpdateForAnotherChannelIsRefused() {
    ConfigUpdate update =
        ordererValues(0, "BatchSize", batchSize(20, 1)).toBuilder().setChannelId("other").build();

    assertRefused(
        update, PREFIX + "ConfigUpdate for channel 'other' but envelope for channel 'fixture'");
  }

  @Test
  void anIllegalModPolicyIsRefused() {
    ConfigValue value = batchSize(20, 1).toBuilder().setModPolicy("Admins/../x").build();

    assertRefused(
        ordererValues(0, "BatchSize", value),
        PREFIX
            + "error validating DeltaSet: invalid mod_policy for element [Value] "
            + " /Channel/Orderer/BatchSize: path element at 1 is invalid: config ID '..' is invalid");
  }

  @Test
  void aConfigThisOrdererCannotRunIsRefused() {
    assertRefused(
        ordererValues(0, "BatchSize", batchSize(0, 1)),
        "error applying config update to existing channel 'fixture': config update is not"
            + " compatible: /Channel/Orderer/BatchSize: MaxMessageCount is 0 but must be at least 1");
  }

  /**
   * Issue 19: an org admin lists an intermediate CA that the org's own CRL revokes. Fabric's
   * orderers refuse the update (its peers would stop at the block); so do we, with Fabric's text.
   */
  @Test
  void anMspFabricCannotSetUpIsRefused() throws Exception {
    TestCa root = TestCa.org1();
    TestCa intermediate = root.intermediate("ica.org1.example.com");
    Config current = GENESIS.config();
    ConfigGroup application = current.getChannelGroup().getGroupsOrThrow("Application");
    ConfigGroup org1 = application.getGroupsOrThrow("Org1");
    MSPConfig msp = MSPConfig.parseFrom(org1.getValuesOrThrow("MSP").getValue());
    FabricMSPConfig revoked =
        FabricMSPConfig.parseFrom(msp.getConfig()).toBuilder()
            .addIntermediateCerts(ByteString.copyFromUtf8(TestCa.pem(intermediate.certificate())))
            .addRevocationList(
                ByteString.copyFromUtf8(TestCa.pem(root.revoke(intermediate.certificate()))))
            .build();
    ConfigValue mspValue =
        org1.getValuesOrThrow("MSP").toBuilder()
            .setValue(msp.toBuilder().setConfig(revoked.toByteString()).build().toByteString())
            .build();
    ConfigGroup edited =
        application.toBuilder()
            .putGroups("Org1", org1.toBuilder().putValues("MSP", mspValue).build())
            .build();
    Config wanted =
        current.toBuilder()
            .setChannelGroup(current.getChannelGroup().toBuilder().putGroups("Application", edited))
            .build();
    ConfigUpdate update = ComputedUpdates.compute("fixture", current, wanted);

    assertThatThrownBy(() -> propose(update, SignedUpdates.ORG1_ADMIN))
        .isInstanceOfSatisfying(
            ConfigUpdateException.class,
            e -> {
              assertThat(e.status()).isEqualTo(Status.BAD_REQUEST);
              assertThat(e.getMessage())
                  .isEqualTo(
                      "error applying config update to existing channel 'fixture': initializing"
                          + " channelconfig failed: could not create channel Application sub-group"
                          + " config: setting up the MSP manager failed: CA Certificate is not"
                          + " valid, (SN: "
                          + intermediate.certificate().getSerialNumber()
                          + "): The certificate has been revoked");
            });
  }

  @Test
  void modPoliciesResolveAsFabricsPolicyForItem() {
    ConfigGroup group = ConfigGroup.newBuilder().setModPolicy("Admins").build();
    ConfigValue value = ConfigValue.newBuilder().setModPolicy("Admins").build();

    assertThat(ConfigElement.group(List.of(), "Channel", group).modPolicyPath())
        .isEqualTo("/Channel/Admins");
    assertThat(
            ConfigElement.group(List.of("Channel", "Application"), "Org1", group).modPolicyPath())
        .isEqualTo("/Channel/Application/Org1/Admins");
    assertThat(
            ConfigElement.value(List.of("Channel", "Orderer"), "BatchSize", value).modPolicyPath())
        .isEqualTo("/Channel/Orderer/Admins");
    assertThat(
            ConfigElement.value(
                    List.of("Channel", "Orderer"),
                    "BatchSize",
                    value.toBuilder().setModPolicy("/Channel/Admins").build())
                .modPolicyPath())
        .isEqualTo("/Channel/Admins");
  }

  /**
   * Property: a BatchSize update applies exactly when the orderer admin is among the signers (in
   * any order, repeated or not), and then sets exactly the new count at version 1.
   */
  @Test
  void batchSizeUpdatesApplyExactlyWhenTheOrdererAdminSigns() throws Exception {
    long seed = System.nanoTime();
    System.out.println("seed " + seed);
    Random random = new Random(seed);
    List<SigningIdentity> pool =
        List.of(SignedUpdates.ORDERER_ADMIN, SignedUpdates.ORG1_ADMIN, SignedUpdates.ORG1_USER);
    for (int round = 0; round < 12; round++) {
      int count = 1 + random.nextInt(1000);
      List<SigningIdentity> signers = new ArrayList<>();
      int signatures = 1 + random.nextInt(4);
      for (int i = 0; i < signatures; i++) {
        signers.add(pool.get(random.nextInt(pool.size())));
      }
      ConfigUpdate update = ordererValues(0, "BatchSize", batchSize(count, 1));
      Envelope envelope = SignedUpdates.signed(update, signers);
      boolean adminSigned = signers.contains(SignedUpdates.ORDERER_ADMIN);
      String context = "seed " + seed + " round " + round + " signers " + signers;

      if (adminSigned) {
        ConfigEnvelope next = FixtureConfigs.processor(GENESIS).propose(envelope);
        ChannelConfig parsed = ConfigBlockReader.readConfig("fixture", 1, next.getConfig());
        assertThat(parsed.batchLimits().maxMessageCount()).as(context).isEqualTo(count);
        assertThat(parsed.sequence()).as(context).isEqualTo(1);
      } else {
        assertThatThrownBy(() -> FixtureConfigs.processor(GENESIS).propose(envelope))
            .as(context)
            .hasMessageContaining("policy for [Value]  /Channel/Orderer/BatchSize not satisfied");
      }
    }
  }
}
