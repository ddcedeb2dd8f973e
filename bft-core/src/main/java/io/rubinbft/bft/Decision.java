package io.rubinbft.bft;

import java.util.List;

/**
 * A decided proposal with its commit certificate: a quorum of valid commit signatures from distinct
 * replicas over the proposal. Anyone holding the replicas' public keys can check it alone.
 */
public record Decision(Proposal proposal, Digest digest, List<CommitSignature> certificate) {

  public Decision {
    certificate = List.copyOf(certificate);
  }

  public long sequence() {
    return proposal.sequence();
  }
}
