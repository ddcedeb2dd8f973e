package io.rubinbft.orderer.tools.bootstrap;

import io.rubinbft.bft.Quorums;
import io.rubinbft.orderer.channel.BftQuorumPolicy;
import java.util.List;
import org.hyperledger.fabric.protos.common.Consenter;
import org.hyperledger.fabric.protos.common.ImplicitMetaPolicy;
import org.hyperledger.fabric.protos.common.MSPPrincipal;
import org.hyperledger.fabric.protos.common.MSPRole;
import org.hyperledger.fabric.protos.common.Orderers;
import org.hyperledger.fabric.protos.common.Policy;
import org.hyperledger.fabric.protos.common.SignaturePolicy;
import org.hyperledger.fabric.protos.common.SignaturePolicyEnvelope;

/** The policies configtxgen writes, built as Fabric's policydsl and encoder build them. */
public final class SignaturePolicies {

  private SignaturePolicies() {}

  /**
   * {@code OR('msp.role1', 'msp.role2', ...)}: one ROLE principal per role, in order, and a
   * 1-out-of rule over them.
   */
  public static SignaturePolicyEnvelope anyOf(String mspId, List<MSPRole.MSPRoleType> roles) {
    if (roles.isEmpty()) {
      throw new IllegalArgumentException("a policy for " + mspId + " needs at least one role");
    }
    SignaturePolicyEnvelope.Builder envelope = SignaturePolicyEnvelope.newBuilder();
    for (MSPRole.MSPRoleType role : roles) {
      envelope.addIdentities(
          MSPPrincipal.newBuilder()
              .setPrincipalClassification(MSPPrincipal.Classification.ROLE)
              .setPrincipal(
                  MSPRole.newBuilder()
                      .setMspIdentifier(mspId)
                      .setRole(role)
                      .build()
                      .toByteString()));
    }
    return envelope.setRule(nOutOf(1, roles.size())).build();
  }

  /**
   * configtxgen's BFT {@code BlockValidation}: signed by {@code ceil((n+f+1)/2)} of the n
   * consenters' enrollment identities, f = (n-1)/3, in consenter order.
   */
  public static Policy bftBlockValidation(List<Consenter> consenters) {
    return BftQuorumPolicy.expected(
        Orderers.newBuilder().addAllConsenterMapping(consenters).build(),
        new Quorums(consenters.size()).quorum());
  }

  /** A SIGNATURE policy holding the envelope. */
  public static Policy signature(SignaturePolicyEnvelope envelope) {
    return Policy.newBuilder()
        .setType(Policy.PolicyType.SIGNATURE_VALUE)
        .setValue(envelope.toByteString())
        .build();
  }

  /** An IMPLICIT_META policy such as {@code MAJORITY Admins}. */
  public static Policy implicitMeta(ImplicitMetaPolicy.Rule rule, String subPolicy) {
    return Policy.newBuilder()
        .setType(Policy.PolicyType.IMPLICIT_META_VALUE)
        .setValue(
            ImplicitMetaPolicy.newBuilder()
                .setRule(rule)
                .setSubPolicy(subPolicy)
                .build()
                .toByteString())
        .build();
  }

  private static SignaturePolicy nOutOf(int n, int signers) {
    SignaturePolicy.NOutOf.Builder rule = SignaturePolicy.NOutOf.newBuilder().setN(n);
    for (int i = 0; i < signers; i++) {
      rule.addRules(SignaturePolicy.newBuilder().setSignedBy(i));
    }
    return SignaturePolicy.newBuilder().setNOutOf(rule).build();
  }
}
