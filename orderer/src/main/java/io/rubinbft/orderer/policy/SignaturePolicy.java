package io.rubinbft.orderer.policy;

import io.rubinbft.orderer.msp.Identity;
import io.rubinbft.orderer.msp.MspConfigException;
import io.rubinbft.orderer.msp.MspPrincipal;
import java.util.ArrayList;
import java.util.List;
import org.hyperledger.fabric.protos.common.MSPPrincipal;
import org.hyperledger.fabric.protos.common.SignaturePolicyEnvelope;

/**
 * A compiled {@code SignaturePolicyEnvelope} (Fabric's cauthdsl): an NOutOf/SignedBy tree over
 * principals. Evaluation is Fabric's, greedy and in rule order: a SignedBy takes the first signer
 * not yet used that satisfies its principal, so one signer satisfies at most one SignedBy; an
 * NOutOf keeps the signers its satisfied children took and gives back those of failed children.
 */
public final class SignaturePolicy implements Policy {

  static final String NOT_SATISFIED = "signature set did not satisfy policy";

  /** A node of the rule tree. */
  sealed interface Rule {
    boolean evaluate(List<Identity> signers, boolean[] used);
  }

  record SignedBy(MspPrincipal principal) implements Rule {
    @Override
    public boolean evaluate(List<Identity> signers, boolean[] used) {
      for (int i = 0; i < signers.size(); i++) {
        if (!used[i] && principal.isSatisfiedBy(signers.get(i))) {
          used[i] = true;
          return true;
        }
      }
      return false;
    }
  }

  record NOutOf(int n, List<Rule> rules) implements Rule {
    @Override
    public boolean evaluate(List<Identity> signers, boolean[] used) {
      int satisfied = 0;
      boolean[] attempt = new boolean[used.length];
      for (Rule rule : rules) {
        System.arraycopy(used, 0, attempt, 0, used.length);
        if (rule.evaluate(signers, attempt)) {
          satisfied++;
          System.arraycopy(attempt, 0, used, 0, used.length);
        }
      }
      return satisfied >= n;
    }
  }

  private final Rule rule;

  SignaturePolicy(Rule rule) {
    this.rule = rule;
  }

  /** Compiles a policy; fails as Fabric does on a version other than 0 or a bad principal index. */
  public static SignaturePolicy compile(SignaturePolicyEnvelope envelope)
      throws PolicyConfigException {
    if (envelope.getVersion() != 0) {
      throw new PolicyConfigException(
          "This evaluator only understands messages of version 0, but version was "
              + envelope.getVersion());
    }
    List<MspPrincipal> principals = new ArrayList<>();
    for (MSPPrincipal principal : envelope.getIdentitiesList()) {
      try {
        principals.add(MspPrincipal.of(principal));
      } catch (MspConfigException e) {
        throw new PolicyConfigException(String.valueOf(e.getMessage()), e);
      }
    }
    return new SignaturePolicy(compile(envelope.getRule(), principals));
  }

  private static Rule compile(
      org.hyperledger.fabric.protos.common.SignaturePolicy rule, List<MspPrincipal> principals)
      throws PolicyConfigException {
    return switch (rule.getTypeCase()) {
      case SIGNED_BY -> {
        int index = rule.getSignedBy();
        if (index < 0 || index >= principals.size()) {
          throw new PolicyConfigException(
              "identity index out of range, requested "
                  + index
                  + ", but identities length is "
                  + principals.size());
        }
        yield new SignedBy(principals.get(index));
      }
      case N_OUT_OF -> {
        List<Rule> rules = new ArrayList<>();
        for (var child : rule.getNOutOf().getRulesList()) {
          rules.add(compile(child, principals));
        }
        yield new NOutOf(rule.getNOutOf().getN(), List.copyOf(rules));
      }
      default -> throw new PolicyConfigException("Empty policy element");
    };
  }

  @Override
  public PolicyResult evaluate(List<Identity> signers) {
    return rule.evaluate(signers, new boolean[signers.size()])
        ? PolicyResult.satisfiedResult()
        : PolicyResult.failed(NOT_SATISFIED);
  }
}
