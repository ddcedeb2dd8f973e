package io.rubinbft.bft;

/**
 * A peer fetched decisions this replica no longer holds in memory (it keeps only the most recent
 * {@code retainedDecisions}, and after a restart only those in its WAL): the host serves them from
 * the application's durable store, where every decision went with its commit certificate (for
 * Fabric: the ledger, whose blocks carry the consenters' signatures). The host reads up to {@code
 * maxCount} consecutive decisions from {@code from} on, stopping early where its store ends and
 * where {@link io.rubinbft.bft.message.Decisions.Budget} cuts at {@code maxBytes} (the replica's
 * {@link ReplicaConfig#answerMaxBytes}, the cut of its answers from memory too, so a read costs at
 * most that, or one larger decision: the protocol paces each peer's reads by that), reading them
 * one after another rather than the range at once, and sends them to {@code replica} as one {@link
 * io.rubinbft.bft.message.Decisions} message from itself (nothing when it holds none). {@code
 * previous} is the digest the requester holds at {@code from - 1}: the first rebuilt proposal
 * chains to it, and each next one to the digest before.
 *
 * <p>The host may serve it off the replica's thread and late: the requester checks every decision
 * (sequence, chain, digest, a quorum of commit signatures) as it would from memory, so an answer
 * needs no trust and no ordering with the other effects.
 */
public record ArchiveRead(int replica, long from, Digest previous, int maxCount, long maxBytes) {

  public ArchiveRead {
    if (from < 1 || maxCount < 1 || maxBytes < 1 || previous == null) {
      throw new IllegalArgumentException(
          "archive read from " + from + " of " + maxCount + " decisions, " + maxBytes + " bytes");
    }
  }
}
