package io.rubinbft.bft.message;

import io.rubinbft.bft.Digest;

/** A backup's signed vote that it accepted the pre-prepare (view, sequence, digest). */
public record Prepare(long view, long sequence, Digest digest, int sender, byte[] signature)
    implements Message {}
