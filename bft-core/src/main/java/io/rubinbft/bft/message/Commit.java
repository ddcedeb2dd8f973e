package io.rubinbft.bft.message;

import io.rubinbft.bft.Digest;

/**
 * A replica's commit: it prepared the proposal with this digest in this view (and its predecessor).
 * {@code signature} is the application's opaque signature over the proposal.
 */
public record Commit(long view, long sequence, Digest digest, int sender, byte[] signature)
    implements Message {}
