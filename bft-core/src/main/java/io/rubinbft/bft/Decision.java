package io.rubinbft.bft;

import java.util.List;

/**
 * A decided proposal with its commit certificate: a quorum of valid commit signatures from distinct
 * replicas over the proposal, all made in one view, {@code view}. A commit signature covers the
 * view it was made in ({@link io.rubinbft.bft.spi.ProposalSigner}), so signatures of two views
 * never form one certificate. Anyone holding the replicas' public keys can check it alone.
 */
public record Decision(
    Proposal proposal, Digest digest, long view, List<CommitSignature> certificate) {

  public Decision {
    if (view < 0) {
      throw new IllegalArgumentException("a decision's view is never negative: " + view);
    }
    certificate = List.copyOf(certificate);
  }

  public long sequence() {
    return proposal.sequence();
  }
}
