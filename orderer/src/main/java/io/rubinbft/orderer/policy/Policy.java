package io.rubinbft.orderer.policy;

import io.rubinbft.orderer.msp.Identity;
import java.util.List;

/** A policy of a channel config, evaluated over signers whose signatures are already verified. */
public sealed interface Policy permits SignaturePolicy, ImplicitMetaPolicy, MissingPolicy {

  /**
   * @param signers validated identities with verified signatures, each at most once
   */
  PolicyResult evaluate(List<Identity> signers);
}
