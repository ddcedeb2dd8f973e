package io.rubinbft.orderer.channel;

import org.hyperledger.fabric.protos.common.MSPPrincipal;
import org.hyperledger.fabric.protos.common.Orderers;
import org.hyperledger.fabric.protos.common.Policy;
import org.hyperledger.fabric.protos.common.SignaturePolicy;
import org.hyperledger.fabric.protos.common.SignaturePolicyEnvelope;
import org.hyperledger.fabric.protos.msp.SerializedIdentity;

/**
 * The block validation policy a BFT channel must carry: {@code OutOf(q, SignedBy(consenter 1), ...,
 * SignedBy(consenter n))} with {@code q = ceil((n+f+1)/2)}, identities in mapping order, exactly as
 * configtxgen writes it and as Fabric's own config verifier demands of config updates. Because the
 * policy is exactly this, counting distinct consenters with valid signatures against the quorum
 * (what our block verifier does) decides what peers decide by evaluating the policy.
 */
public final class BftQuorumPolicy {

  private BftQuorumPolicy() {}

  /**
   * configtxgen's BFT {@code BlockValidation}: a SIGNATURE policy signed by {@code quorum} of the
   * consenters' enrollment identities, in consenter-mapping order.
   */
  public static Policy expected(Orderers orderers, int quorum) {
    SignaturePolicy.NOutOf.Builder outOf = SignaturePolicy.NOutOf.newBuilder().setN(quorum);
    SignaturePolicyEnvelope.Builder envelope = SignaturePolicyEnvelope.newBuilder();
    for (int i = 0; i < orderers.getConsenterMappingCount(); i++) {
      org.hyperledger.fabric.protos.common.Consenter consenter = orderers.getConsenterMapping(i);
      outOf.addRules(SignaturePolicy.newBuilder().setSignedBy(i));
      envelope.addIdentities(
          MSPPrincipal.newBuilder()
              .setPrincipalClassification(MSPPrincipal.Classification.IDENTITY)
              .setPrincipal(
                  SerializedIdentity.newBuilder()
                      .setMspid(consenter.getMspId())
                      .setIdBytes(consenter.getIdentity())
                      .build()
                      .toByteString()));
    }
    envelope.setRule(SignaturePolicy.newBuilder().setNOutOf(outOf));
    return Policy.newBuilder()
        .setType(Policy.PolicyType.SIGNATURE_VALUE)
        .setValue(envelope.build().toByteString())
        .build();
  }

  /**
   * @throws IllegalArgumentException when {@code actual} is not the expected quorum policy
   */
  static void check(Policy actual, Orderers orderers, int quorum) {
    Policy expected = expected(orderers, quorum);
    if (actual.getType() != expected.getType()) {
      throw new IllegalArgumentException(
          ChannelConfig.BLOCK_VALIDATION_POLICY
              + " is a policy of type "
              + actual.getType()
              + " but a BFT channel needs the SIGNATURE policy OutOf("
              + quorum
              + ", consenters)");
    }
    SignaturePolicyEnvelope actualRule =
        ConfigTree.decode(
            actual.getValue(),
            ChannelConfig.BLOCK_VALIDATION_POLICY,
            SignaturePolicyEnvelope.parser());
    if (!actualRule.equals(
        ConfigTree.decode(
            expected.getValue(), "expected policy", SignaturePolicyEnvelope.parser()))) {
      throw new IllegalArgumentException(
          ChannelConfig.BLOCK_VALIDATION_POLICY
              + " is not OutOf("
              + quorum
              + ", SignedBy each consenter in mapping order), the policy configtxgen writes for BFT");
    }
  }
}
