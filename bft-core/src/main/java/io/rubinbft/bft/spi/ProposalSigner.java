package io.rubinbft.bft.spi;

import io.rubinbft.bft.Proposal;

/**
 * The commit signature: the application's opaque signature over a proposal <em>and the view of the
 * commit</em>. For Fabric it is the consenter's signature over the block header and metadata value
 * (whose consenter metadata names that view) with a per-signer nonce inside an IdentifierHeader, so
 * bft-core never assumes signature = sign(digest): it only stores the bytes and asks this interface
 * whether they are valid.
 *
 * <p>The view is part of what is signed: a signature made in view v must not verify for any other
 * view. PBFT decides on 2f + 1 commits <em>of one view</em> (committed-local); were the view left
 * out, commits a replica sent for the same proposal in different views would be indistinguishable,
 * and a quorum could be put together from views in which the proposal was never committed. The
 * epoch needs no input of its own: the proposal chains by digest to its epoch's anchor, and the
 * epoch is a function of that history (the host's switch rule), so equal proposals lie in equal
 * epochs.
 */
public interface ProposalSigner {

  /** This replica's commit signature over the proposal, committed in {@code view}. */
  byte[] signProposal(long view, Proposal proposal);

  /**
   * Whether {@code signature} is replica {@code replica}'s valid commit signature over the proposal
   * made in {@code view}.
   */
  boolean verifyProposalSignature(int replica, long view, Proposal proposal, byte[] signature);
}
