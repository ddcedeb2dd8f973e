package io.rubinbft.ledger;

/** Where a transaction is: the block and the envelope's index in that block's data. */
public record TxLocation(long blockNumber, int envelopeIndex) {}
