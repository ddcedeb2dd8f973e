package io.rubinbft.bft.message;

import io.rubinbft.bft.Digest;

/** A signed statement that the replica decided the proposal with this digest at this sequence. */
public record Checkpoint(long sequence, Digest digest, int sender, byte[] signature)
    implements Message {}
