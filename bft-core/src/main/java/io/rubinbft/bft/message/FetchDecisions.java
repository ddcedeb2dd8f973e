package io.rubinbft.bft.message;

import io.rubinbft.bft.Digest;

/**
 * State transfer: asks one replica for decisions from {@code from} on, at most {@code maxCount}.
 * {@code previous} is the digest the asking replica decided at {@code from - 1}: a host serving old
 * decisions from its ledger rebuilds each proposal, and a proposal's digest covers its
 * predecessor's, which the ledger does not hold (a lie here only spoils the liar's own answer).
 */
public record FetchDecisions(long from, Digest previous, int maxCount, int sender)
    implements Message {}
