package io.rubinbft.bft;

import java.util.List;

/**
 * What one sequence number orders: a batch of requests plus the application's payload assembled
 * from them (for Fabric, the block header and metadata), chained to the previous proposal's digest.
 * Everything that ends up in a block is decided here, once (docs/ARCHITECTURE.md principle 13).
 */
public record Proposal(long sequence, Digest previous, List<Request> requests, byte[] payload) {

  public Proposal {
    if (sequence < 1 || previous == null || requests == null || payload == null) {
      throw new IllegalArgumentException(
          "proposal needs sequence >= 1, previous, requests, payload");
    }
    requests = List.copyOf(requests);
  }
}
