package io.rubinbft.bft.message;

import io.rubinbft.bft.Digest;

/**
 * Asks one replica for the body of the proposal at {@code sequence} with {@code digest}: a view
 * change or new view names proposals by digest only (WIRE.md "Bodies by digest"), and a replica
 * that lacks one fetches it before it checks the message.
 */
public record FetchProposal(long sequence, Digest digest, int sender) implements Message {}
