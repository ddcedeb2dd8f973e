package io.rubinbft.bft;

/** A client request this replica did not take, and why (e.g. the pool is full: push back). */
public record Rejection(RequestId id, String reason) {}
