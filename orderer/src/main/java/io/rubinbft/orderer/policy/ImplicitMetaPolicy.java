package io.rubinbft.orderer.policy;

import io.rubinbft.orderer.msp.Identity;
import java.util.List;
import org.hyperledger.fabric.protos.common.ImplicitMetaPolicy.Rule;

/**
 * Fabric's ImplicitMeta policy: ANY, ALL or MAJORITY of the sub-groups' policies of one name. With
 * no sub-groups the threshold is 0 (satisfied), as in Fabric.
 */
public final class ImplicitMetaPolicy implements Policy {

  private final String subPolicyName;
  private final List<Policy> subPolicies;
  private final int threshold;

  ImplicitMetaPolicy(Rule rule, String subPolicyName, List<Policy> subPolicies) {
    this.subPolicyName = subPolicyName;
    this.subPolicies = List.copyOf(subPolicies);
    int count = subPolicies.size();
    this.threshold =
        switch (rule) {
          case ANY -> Math.min(1, count);
          case ALL -> count;
          case MAJORITY -> count == 0 ? 0 : count / 2 + 1;
          case UNRECOGNIZED -> throw new IllegalArgumentException("unrecognized implicit rule");
        };
  }

  @Override
  public PolicyResult evaluate(List<Identity> signers) {
    int satisfied = 0;
    for (Policy policy : subPolicies) {
      if (satisfied == threshold) {
        break;
      }
      if (policy.evaluate(signers).satisfied()) {
        satisfied++;
      }
    }
    if (satisfied >= threshold) {
      return PolicyResult.satisfiedResult();
    }
    return PolicyResult.failed(
        "implicit policy evaluation failed - "
            + satisfied
            + " sub-policies were satisfied, but this policy requires "
            + threshold
            + " of the '"
            + subPolicyName
            + "' sub-policies to be satisfied");
  }
}
