package io.rubinbft.ledger;

import java.util.Optional;

/**
 * The result of verifying a channel's chain.
 *
 * @param channel the channel
 * @param height the height when verification started
 * @param blocksVerified how many blocks, from 0, passed every check
 * @param problem the first failed check, naming the block; empty when the whole chain passed
 */
public record ChainVerification(
    String channel, long height, long blocksVerified, Optional<String> problem) {

  public boolean ok() {
    return problem.isEmpty();
  }
}
