package io.rubinbft.bft;

import java.util.List;

/**
 * What one sequence number orders: a batch of requests plus the application's payload assembled
 * from them (for Fabric, the block header and metadata), chained to the previous proposal's digest.
 * Everything that ends up in a block is decided here, once (docs/ARCHITECTURE.md principle 13).
 */
public record Proposal(long sequence, Digest previous, List<Request> requests, byte[] payload) {

  /** The payload of every hollow proposal, told apart by identity (never a real payload). */
  private static final byte[] NO_BODY = new byte[0];

  public Proposal {
    if (sequence < 1 || previous == null || requests == null || payload == null) {
      throw new IllegalArgumentException(
          "proposal needs sequence >= 1, previous, requests, payload");
    }
    requests = List.copyOf(requests);
  }

  /**
   * A stand-in for a proposal known only by its digest: what view changes and new views carry on
   * the wire (WIRE.md "Bodies by digest"). It names the sequence and the predecessor its sender
   * claims, and never hashes to the digest it stands for, so a message still holding one fails the
   * digest check; the receiver fills in the body (ProposalBodies) before it looks further.
   */
  public static Proposal hollow(long sequence, Digest previous) {
    return new Proposal(sequence, previous, List.of(), NO_BODY);
  }

  /** The request bytes this proposal orders ({@link Request#size()} summed): what budgets count. */
  public long requestBytes() {
    long bytes = 0;
    for (Request request : requests) {
      bytes += request.size();
    }
    return bytes;
  }

  /** Whether this is a {@link #hollow} stand-in rather than a body. */
  public boolean isHollow() {
    return payload == NO_BODY;
  }
}
