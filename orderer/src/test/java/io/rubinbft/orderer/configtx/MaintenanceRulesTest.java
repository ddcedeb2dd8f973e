package io.rubinbft.orderer.configtx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.channel.ConfigBlockReader;
import io.rubinbft.orderer.channel.ConsensusState;
import io.rubinbft.orderer.channel.InvalidConfigException;
import io.rubinbft.orderer.identity.SigningIdentity;
import io.rubinbft.orderer.testing.FabricFixtures;
import java.time.Clock;
import java.util.List;
import java.util.function.UnaryOperator;
import org.hyperledger.fabric.protos.common.Config;
import org.hyperledger.fabric.protos.common.ConfigEnvelope;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.ConsensusType.State;
import org.hyperledger.fabric.protos.peer.AnchorPeer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fabric's maintenance filter on updates computed as {@code configtxlator compute_update} computes
 * them and signed by the fixture's admins: entering or leaving maintenance mode is the only change
 * of its update; within maintenance mode other changes are ordered as usual.
 */
class MaintenanceRulesTest {

  private static final ChannelConfig GENESIS = FixtureConfigs.config(0);
  private static final String REFUSED =
      "config update for existing channel did not pass maintenance checks: config transaction"
          + " inspection failed: ";

  private static final ConfigEnvelopeSigner ORDERER1 =
      new ConfigEnvelopeSigner(
          SigningIdentity.fromMspDirectory(
              FabricFixtures.root()
                  .resolve(
                      "crypto/ordererOrganizations/example.com/orderers/orderer1.example.com/msp"),
              "OrdererMSP",
              FixtureConfigs.PROVIDER),
          Clock.systemUTC());

  private static ChannelConfig read(Config config) {
    try {
      return ConfigBlockReader.readConfig("fixture", 0, config);
    } catch (InvalidConfigException e) {
      throw new IllegalStateException(e);
    }
  }

  private static ChannelConfig maintenance() {
    return read(ConfigEdits.consensusState(GENESIS.config(), State.STATE_MAINTENANCE));
  }

  private static ConfigEnvelope propose(ChannelConfig from, Config to, SigningIdentity... signers)
      throws ConfigUpdateException {
    return FixtureConfigs.processor(from)
        .propose(
            SignedUpdates.signed(
                ComputedUpdates.compute("fixture", from.config(), to), List.of(signers)));
  }

  private static void assertRefused(
      ChannelConfig from, Config to, String reason, SigningIdentity... signers) {
    assertThatThrownBy(() -> propose(from, to, signers))
        .isInstanceOfSatisfying(
            ConfigUpdateException.class,
            e -> {
              assertThat(e.status()).isEqualTo(Status.BAD_REQUEST);
              assertThat(e.getMessage()).isEqualTo(REFUSED + reason);
            });
  }

  @Test
  void enteringAndLeavingMaintenanceAloneIsOrdered() throws Exception {
    assertThat(GENESIS.inMaintenance()).isFalse();

    ConfigEnvelope entered =
        propose(
            GENESIS,
            ConfigEdits.consensusState(GENESIS.config(), State.STATE_MAINTENANCE),
            SignedUpdates.ORDERER_ADMIN);
    ChannelConfig inMaintenance = read(entered.getConfig());
    assertThat(inMaintenance.consensusState()).isEqualTo(ConsensusState.MAINTENANCE);
    assertThat(inMaintenance.inMaintenance()).isTrue();
    assertThat(ConfigBlockReader.inMaintenance(entered.getConfig())).isTrue();

    ConfigEnvelope left =
        propose(
            inMaintenance,
            ConfigEdits.consensusState(inMaintenance.config(), State.STATE_NORMAL),
            SignedUpdates.ORDERER_ADMIN);
    assertThat(read(left.getConfig()).inMaintenance()).isFalse();
  }

  /** A switch into or out of maintenance mode with another Orderer-group change beside it. */
  record MixedSwitch(String name, boolean entering, UnaryOperator<Config> other, String why) {
    @Override
    public String toString() {
      return name;
    }
  }

  static List<MixedSwitch> mixedSwitches() {
    String notJustTheType =
        "config update contain more then just the ConsensusType value in the Orderer group";
    return List.of(
        new MixedSwitch(
            "entering with another orderer value",
            true,
            config -> ConfigEdits.maxMessageCount(config, 17),
            notJustTheType),
        new MixedSwitch(
            "leaving with another orderer value",
            false,
            config -> ConfigEdits.maxMessageCount(config, 17),
            notJustTheType),
        new MixedSwitch(
            "leaving with changed SmartBFT options",
            false,
            config -> ConfigEdits.smartBftBatchMaxCount(config, 7),
            "attempted to change ConsensusType.Metadata, but ConsensusType.State is changing from"
                + " STATE_MAINTENANCE to STATE_NORMAL"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mixedSwitches")
  void switchingMaintenanceWithAnotherOrdererChangeIsRefused(MixedSwitch mixed) {
    ChannelConfig from = mixed.entering() ? GENESIS : maintenance();
    State to = mixed.entering() ? State.STATE_MAINTENANCE : State.STATE_NORMAL;
    Config both = mixed.other().apply(ConfigEdits.consensusState(from.config(), to));

    assertRefused(from, both, mixed.why(), SignedUpdates.ORDERER_ADMIN);
  }

  @Test
  void enteringMaintenanceWithAChangeInAnotherGroupIsRefused() {
    Config both =
        ConfigEdits.anchorPeers(
            ConfigEdits.consensusState(GENESIS.config(), State.STATE_MAINTENANCE),
            "Org1",
            List.of(
                AnchorPeer.newBuilder().setHost("peer0.org1.example.com").setPort(7051).build()));

    assertRefused(
        GENESIS,
        both,
        "config update contains changes to more than one group",
        SignedUpdates.ORDERER_ADMIN,
        SignedUpdates.ORG1_ADMIN);
  }

  /**
   * Observed with Fabric v3.1.5's orderers (orderer/docs/FABRIC-INTEROP.md): its filter, not the
   * config's parsing, answers a change of consensus type, in maintenance or not.
   */
  @Test
  void aChangeOfConsensusTypeGetsFabricsFilterAnswer() {
    ChannelConfig maintenance = maintenance();

    assertRefused(
        maintenance,
        ConfigEdits.consensusType(maintenance.config(), "etcdraft"),
        "attempted to change consensus type from BFT to etcdraft, transition not supported",
        SignedUpdates.ORDERER_ADMIN);
    assertRefused(
        GENESIS,
        ConfigEdits.consensusType(GENESIS.config(), "etcdraft"),
        "attempted to change consensus type from BFT to etcdraft, but current config"
            + " ConsensusType.State is not in maintenance mode",
        SignedUpdates.ORDERER_ADMIN);
    assertRefused(
        maintenance,
        ConfigEdits.consensusType(
            ConfigEdits.consensusState(maintenance.config(), State.STATE_NORMAL), "etcdraft"),
        "attempted to change ConsensusType.Type from BFT to etcdraft, but ConsensusType.State is"
            + " changing from STATE_MAINTENANCE to STATE_NORMAL",
        SignedUpdates.ORDERER_ADMIN);
  }

  @Test
  void otherChangesAreOrderedWithinMaintenanceMode() throws Exception {
    ChannelConfig maintenance = maintenance();

    ConfigEnvelope changed =
        propose(
            maintenance,
            ConfigEdits.maxMessageCount(maintenance.config(), 17),
            SignedUpdates.ORDERER_ADMIN);

    ChannelConfig next = read(changed.getConfig());
    assertThat(next.inMaintenance()).isTrue();
    assertThat(next.batchLimits().maxMessageCount()).isEqualTo(17);
  }

  @Test
  void withoutTheMigrationCapabilityTheStateStaysNormal() {
    ChannelConfig v11 = read(ConfigEdits.ordererCapabilities(GENESIS.config(), List.of("V1_1")));
    Config entering = ConfigEdits.consensusState(v11.config(), State.STATE_MAINTENANCE);

    assertRefused(
        v11,
        entering,
        "next config attempted to change ConsensusType.State to STATE_MAINTENANCE, but capability"
            + " is disabled",
        SignedUpdates.ORDERER_ADMIN);
    // A config carrying the state without the capability is not in maintenance (Fabric ignores it).
    assertThat(read(entering).consensusState()).isEqualTo(ConsensusState.MAINTENANCE);
    assertThat(read(entering).inMaintenance()).isFalse();
  }

  @Test
  void aReplicaRefusesAConfigTransactionThatBreaksTheRules() throws Exception {
    ChannelConfig maintenance = maintenance();
    Config both =
        ConfigEdits.maxMessageCount(
            ConfigEdits.consensusState(maintenance.config(), State.STATE_NORMAL), 17);
    var update =
        SignedUpdates.signed(
            ComputedUpdates.compute("fixture", maintenance.config(), both),
            List.of(SignedUpdates.ORDERER_ADMIN));
    ConfigEnvelope forged =
        ConfigEnvelope.newBuilder()
            .setConfig(both.toBuilder().setSequence(1))
            .setLastUpdate(update)
            .build();

    assertThat(
            FixtureConfigs.check(maintenance)
                .invalidReason(ORDERER1.sign("fixture", forged).toByteString()))
        .hasValueSatisfying(reason -> assertThat(reason).startsWith(REFUSED));
  }
}
