package io.rubinbft.bft.spi;

import io.rubinbft.bft.Proposal;

/**
 * The commit signature: the application's opaque signature over a proposal. For Fabric it is the
 * consenter's signature over the block header and metadata value with a per-signer nonce inside an
 * IdentifierHeader, so bft-core never assumes signature = sign(digest): it only stores the bytes
 * and asks this interface whether they are valid.
 */
public interface ProposalSigner {

  /** This replica's commit signature over the proposal. */
  byte[] signProposal(Proposal proposal);

  /** Whether {@code signature} is replica {@code replica}'s valid commit signature over it. */
  boolean verifyProposalSignature(int replica, Proposal proposal, byte[] signature);
}
