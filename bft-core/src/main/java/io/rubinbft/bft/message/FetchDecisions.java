package io.rubinbft.bft.message;

/**
 * State transfer: asks one replica for decisions from {@code from} on, at most {@code maxCount}.
 */
public record FetchDecisions(long from, int maxCount, int sender) implements Message {}
