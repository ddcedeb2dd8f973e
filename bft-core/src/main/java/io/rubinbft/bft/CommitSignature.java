package io.rubinbft.bft;

/** One replica's opaque commit signature over a proposal (for Fabric, over the block header). */
public record CommitSignature(int replica, byte[] signature) {}
