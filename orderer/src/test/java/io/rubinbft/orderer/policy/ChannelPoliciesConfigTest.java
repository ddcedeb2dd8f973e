package io.rubinbft.orderer.policy;

import static io.rubinbft.orderer.tools.bootstrap.SignaturePolicies.implicitMeta;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rubinbft.orderer.crypto.EcdsaVerifier;
import io.rubinbft.orderer.crypto.Fixtures;
import java.util.List;
import org.hyperledger.fabric.protos.common.Config;
import org.hyperledger.fabric.protos.common.ConfigGroup;
import org.hyperledger.fabric.protos.common.ConfigPolicy;
import org.hyperledger.fabric.protos.common.ImplicitMetaPolicy;
import org.hyperledger.fabric.protos.common.Policy;
import org.hyperledger.fabric.protos.common.SignaturePolicy.NOutOf;
import org.hyperledger.fabric.protos.common.SignaturePolicyEnvelope;
import org.junit.jupiter.api.Test;

/** Policy trees built from variations of the genesis config. */
class ChannelPoliciesConfigTest {

  private static final SignedData USER1 =
      ChannelPoliciesTest.org1("users", "User1@org1.example.com");

  private static Config withChannelPolicy(String name, Policy policy) {
    Config genesis = Fixtures.genesisConfig();
    ConfigGroup.Builder channel = genesis.getChannelGroup().toBuilder();
    channel.putPolicies(name, ConfigPolicy.newBuilder().setPolicy(policy).build());
    return genesis.toBuilder().setChannelGroup(channel).build();
  }

  private static ChannelPolicies build(Config config) throws PolicyConfigException {
    return ChannelPolicies.fromConfig(
        config,
        new SignerVerifier(GenesisChannel.msps(), new EcdsaVerifier(GenesisChannel.PROVIDER)));
  }

  @Test
  void aSubGroupWithoutTheNamedPolicyCountsAsUnsatisfied() throws PolicyConfigException {
    ChannelPolicies policies =
        build(withChannelPolicy("Auditors", implicitMeta(ImplicitMetaPolicy.Rule.ANY, "Auditors")));

    assertThat(policies.evaluate("/Channel/Auditors", List.of(USER1)).failure())
        .isEqualTo(
            "implicit policy evaluation failed - 0 sub-policies were satisfied, but this policy"
                + " requires 1 of the 'Auditors' sub-policies to be satisfied");
  }

  @Test
  void allNeedsEverySubGroup() throws PolicyConfigException {
    ChannelPolicies policies =
        build(
            withChannelPolicy("AllReaders", implicitMeta(ImplicitMetaPolicy.Rule.ALL, "Readers")));
    SignedData ordererAdmin = ChannelPoliciesTest.orderer("users", "Admin@example.com");

    assertThat(policies.evaluate("/Channel/AllReaders", List.of(USER1)).failure())
        .isEqualTo(
            "implicit policy evaluation failed - 1 sub-policies were satisfied, but this policy"
                + " requires 2 of the 'Readers' sub-policies to be satisfied");
    assertThat(policies.evaluate("/Channel/AllReaders", List.of(USER1, ordererAdmin)).satisfied())
        .isTrue();
  }

  @Test
  void anImplicitPolicyOverNoSubGroupsIsSatisfied() throws PolicyConfigException {
    Config genesis = Fixtures.genesisConfig();
    ConfigGroup.Builder org1 =
        genesis
            .getChannelGroup()
            .getGroupsOrThrow("Application")
            .getGroupsOrThrow("Org1")
            .toBuilder();
    org1.putPolicies(
        "Anyone",
        ConfigPolicy.newBuilder()
            .setPolicy(implicitMeta(ImplicitMetaPolicy.Rule.MAJORITY, "X"))
            .build());
    ConfigGroup.Builder application =
        genesis.getChannelGroup().getGroupsOrThrow("Application").toBuilder()
            .putGroups("Org1", org1.build());
    Config config =
        genesis.toBuilder()
            .setChannelGroup(
                genesis.getChannelGroup().toBuilder().putGroups("Application", application.build()))
            .build();

    assertThat(build(config).evaluate("/Channel/Application/Org1/Anyone", List.of()).satisfied())
        .isTrue();
  }

  @Test
  void refusesPoliciesFabricCouldNotEvaluateSensibly() {
    Policy outOfRange =
        Policy.newBuilder()
            .setType(Policy.PolicyType.SIGNATURE_VALUE)
            .setValue(
                SignaturePolicyEnvelope.newBuilder()
                    .setRule(
                        org.hyperledger.fabric.protos.common.SignaturePolicy.newBuilder()
                            .setNOutOf(
                                NOutOf.newBuilder()
                                    .setN(1)
                                    .addRules(
                                        org.hyperledger.fabric.protos.common.SignaturePolicy
                                            .newBuilder()
                                            .setSignedBy(3))))
                    .build()
                    .toByteString())
            .build();
    Policy mspType = Policy.newBuilder().setType(Policy.PolicyType.MSP_VALUE).build();

    assertThatThrownBy(() -> build(withChannelPolicy("Broken", outOfRange)))
        .isInstanceOf(PolicyConfigException.class)
        .hasMessage(
            "/Channel/Broken: identity index out of range, requested 3, but identities length is 0");
    assertThatThrownBy(() -> build(withChannelPolicy("Broken", mspType)))
        .isInstanceOf(PolicyConfigException.class)
        .hasMessage("/Channel/Broken: policy type 2 is not supported");
  }
}
