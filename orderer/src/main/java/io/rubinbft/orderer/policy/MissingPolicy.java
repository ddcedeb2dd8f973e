package io.rubinbft.orderer.policy;

import io.rubinbft.orderer.msp.Identity;
import java.util.List;

/**
 * Stands for a sub-policy an ImplicitMeta policy names but a sub-group lacks: never satisfied, as
 * Fabric's reject policy.
 */
record MissingPolicy(String path) implements Policy {

  @Override
  public PolicyResult evaluate(List<Identity> signers) {
    return PolicyResult.failed("no such policy: " + path);
  }
}
