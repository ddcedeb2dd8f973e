package io.rubinbft.bft.message;

import io.rubinbft.bft.Proposal;

/**
 * The answer to a {@link FetchProposal}: one proposal's body. The receiver keeps it only if it
 * hashes to a digest it is waiting for, so any replica may answer and a wrong body changes nothing.
 */
public record ProposalBody(Proposal proposal, int sender) implements Message {}
