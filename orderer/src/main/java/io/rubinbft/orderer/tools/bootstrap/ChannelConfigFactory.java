package io.rubinbft.orderer.tools.bootstrap;

import com.google.protobuf.Message;
import io.rubinbft.orderer.config.GoDuration;
import java.util.List;
import java.util.Map;
import org.hyperledger.fabric.protos.common.BlockDataHashingStructure;
import org.hyperledger.fabric.protos.common.Capabilities;
import org.hyperledger.fabric.protos.common.Capability;
import org.hyperledger.fabric.protos.common.Config;
import org.hyperledger.fabric.protos.common.ConfigGroup;
import org.hyperledger.fabric.protos.common.ConfigPolicy;
import org.hyperledger.fabric.protos.common.ConfigValue;
import org.hyperledger.fabric.protos.common.Consenter;
import org.hyperledger.fabric.protos.common.HashingAlgorithm;
import org.hyperledger.fabric.protos.common.ImplicitMetaPolicy.Rule;
import org.hyperledger.fabric.protos.common.OrdererAddresses;
import org.hyperledger.fabric.protos.common.Orderers;
import org.hyperledger.fabric.protos.common.Policy;
import org.hyperledger.fabric.protos.common.SignaturePolicyEnvelope;
import org.hyperledger.fabric.protos.orderer.BatchTimeout;
import org.hyperledger.fabric.protos.orderer.ChannelRestrictions;
import org.hyperledger.fabric.protos.orderer.ConsensusType;
import org.hyperledger.fabric.protos.peer.AnchorPeers;

/**
 * The channel {@code Config} configtxgen's encoder writes for a BFT profile: the same groups,
 * values, policies, mod_policies ({@code Admins} everywhere) and versions (0), with every value
 * encoded as configtxgen encodes it.
 */
public final class ChannelConfigFactory {

  static final String ADMINS = "Admins";
  static final String CHANNEL_CAPABILITY = "V3_0";
  static final String ORDERER_CAPABILITY = "V2_0";
  static final String APPLICATION_CAPABILITY = "V2_5";

  /** Fabric's {@code BlockDataHashingStructure.width}: math.MaxUint32, "all data in one hash". */
  private static final int HASHING_WIDTH_ALL = -1;

  private ChannelConfigFactory() {}

  public static Config create(BftChannelProfile profile) {
    ConfigGroup.Builder channel = ConfigGroup.newBuilder().setModPolicy(ADMINS);
    addStandardPolicies(channel);
    channel.putValues(
        "HashingAlgorithm", value(HashingAlgorithm.newBuilder().setName("SHA256").build()));
    channel.putValues(
        "BlockDataHashingStructure",
        value(BlockDataHashingStructure.newBuilder().setWidth(HASHING_WIDTH_ALL).build()));
    channel.putValues("Capabilities", value(capabilities(CHANNEL_CAPABILITY)));
    channel.putGroups("Orderer", ordererGroup(profile));
    if (!profile.applicationOrgs().isEmpty()) {
      channel.putGroups("Application", applicationGroup(profile.applicationOrgs()));
    }
    return Config.newBuilder().setChannelGroup(channel).build();
  }

  private static ConfigGroup ordererGroup(BftChannelProfile profile) {
    List<Consenter> consenters =
        profile.consenters().stream().map(ConsenterSpec::toConsenter).toList();
    ConfigGroup.Builder orderer = ConfigGroup.newBuilder().setModPolicy(ADMINS);
    addStandardPolicies(orderer);
    orderer.putPolicies(
        "BlockValidation", policy(SignaturePolicies.bftBlockValidation(consenters)));
    orderer.putValues("BatchSize", value(profile.batchSize()));
    orderer.putValues(
        "BatchTimeout",
        value(
            BatchTimeout.newBuilder()
                .setTimeout(GoDuration.format(profile.batchTimeout()))
                .build()));
    // MaxChannels 0 ("no limit"): an empty message, as configtxgen writes it.
    orderer.putValues("ChannelRestrictions", value(ChannelRestrictions.getDefaultInstance()));
    orderer.putValues("Capabilities", value(capabilities(ORDERER_CAPABILITY)));
    orderer.putValues(
        "ConsensusType",
        value(
            ConsensusType.newBuilder()
                .setType("BFT")
                .setMetadata(profile.smartBft().toByteString())
                .setState(ConsensusType.State.STATE_NORMAL)
                .build()));
    orderer.putValues(
        "Orderers", value(Orderers.newBuilder().addAllConsenterMapping(consenters).build()));
    for (Organization org : profile.ordererOrgs()) {
      orderer.putGroups(org.name(), organizationGroup(org));
    }
    return orderer.build();
  }

  private static ConfigGroup applicationGroup(List<Organization> orgs) {
    ConfigGroup.Builder application = ConfigGroup.newBuilder().setModPolicy(ADMINS);
    addStandardPolicies(application);
    application.putPolicies(
        "LifecycleEndorsement",
        policy(SignaturePolicies.implicitMeta(Rule.MAJORITY, "Endorsement")));
    application.putPolicies(
        "Endorsement", policy(SignaturePolicies.implicitMeta(Rule.MAJORITY, "Endorsement")));
    application.putValues("Capabilities", value(capabilities(APPLICATION_CAPABILITY)));
    for (Organization org : orgs) {
      application.putGroups(org.name(), organizationGroup(org));
    }
    return application.build();
  }

  /**
   * An organization's group as configtxgen writes it into a channel config (what {@code configtxgen
   * -printOrg} prints for an org to be added by a config update): its policies, MSP, and endpoints
   * or anchor peers, every element at version 0 with mod_policy Admins.
   */
  public static ConfigGroup organizationGroup(Organization org) {
    ConfigGroup.Builder group = ConfigGroup.newBuilder().setModPolicy(ADMINS);
    for (Map.Entry<String, SignaturePolicyEnvelope> entry : org.policies().entrySet()) {
      group.putPolicies(entry.getKey(), policy(SignaturePolicies.signature(entry.getValue())));
    }
    group.putValues("MSP", value(MspDirectory.mspValue(org.mspDir(), org.mspId())));
    if (!org.ordererEndpoints().isEmpty()) {
      group.putValues(
          "Endpoints",
          value(OrdererAddresses.newBuilder().addAllAddresses(org.ordererEndpoints()).build()));
    }
    if (!org.anchorPeers().isEmpty()) {
      group.putValues(
          "AnchorPeers",
          value(AnchorPeers.newBuilder().addAllAnchorPeers(org.anchorPeers()).build()));
    }
    return group.build();
  }

  /** Readers and Writers {@code ANY}, Admins {@code MAJORITY}, over the group's children. */
  private static void addStandardPolicies(ConfigGroup.Builder group) {
    group.putPolicies("Readers", policy(SignaturePolicies.implicitMeta(Rule.ANY, "Readers")));
    group.putPolicies("Writers", policy(SignaturePolicies.implicitMeta(Rule.ANY, "Writers")));
    group.putPolicies("Admins", policy(SignaturePolicies.implicitMeta(Rule.MAJORITY, "Admins")));
  }

  private static Capabilities capabilities(String capability) {
    return Capabilities.newBuilder()
        .putCapabilities(capability, Capability.getDefaultInstance())
        .build();
  }

  private static ConfigValue value(Message message) {
    return ConfigValue.newBuilder().setValue(message.toByteString()).setModPolicy(ADMINS).build();
  }

  private static ConfigPolicy policy(Policy policy) {
    return ConfigPolicy.newBuilder().setPolicy(policy).setModPolicy(ADMINS).build();
  }
}
