package io.rubinbft.bft.message;

import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Proposal;

/**
 * The primary's proposal for a sequence number in a view. Its signature is the primary's prepare
 * vote (see {@link SignedBytes#prepareVote}), so it counts towards the prepared certificate.
 */
public record PrePrepare(
    long view, long sequence, Digest digest, Proposal proposal, int sender, byte[] signature)
    implements Message {}
