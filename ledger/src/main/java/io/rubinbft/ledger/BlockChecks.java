package io.rubinbft.ledger;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.Block;
import org.jspecify.annotations.Nullable;

/** The chain rules a block must meet, as reasons (empty when the block meets them). */
final class BlockChecks {

  private static final HexFormat HEX = HexFormat.of();

  private BlockChecks() {}

  /**
   * Why {@code block} cannot be block {@code expectedNumber} after a block whose header hashes to
   * {@code previousHash} ({@code null} for block 0, whose previous hash is not checked).
   */
  static Optional<String> whyNotNext(
      Block block, long expectedNumber, byte @Nullable [] previousHash) {
    if (!block.hasHeader()) {
      return Optional.of("block has no header");
    }
    long number = block.getHeader().getNumber();
    if (number != expectedNumber) {
      return Optional.of(
          "block number is "
              + Long.toUnsignedString(number)
              + " but expected "
              + Long.toUnsignedString(expectedNumber));
    }
    if (previousHash != null) {
      Optional<String> unlinked = whyNotLinked(block, previousHash);
      if (unlinked.isPresent()) {
        return unlinked;
      }
    }
    return whyDataHashWrong(block);
  }

  /**
   * Why {@code block}'s previous_hash is not {@code previousHash}, the hash of the block before.
   */
  static Optional<String> whyNotLinked(Block block, byte[] previousHash) {
    byte[] actual = block.getHeader().getPreviousHash().toByteArray();
    if (Arrays.equals(actual, previousHash)) {
      return Optional.empty();
    }
    long number = block.getHeader().getNumber();
    return Optional.of(
        "previous_hash of block "
            + number
            + " is "
            + HEX.formatHex(actual)
            + " but the hash of block "
            + (number - 1)
            + "'s header is "
            + HEX.formatHex(previousHash));
  }

  /** Why the envelopes of {@code block} do not hash to its header's data_hash. */
  static Optional<String> whyDataHashWrong(Block block) {
    byte[] actual = BlockHashing.dataHash(block.getData());
    byte[] recorded = block.getHeader().getDataHash().toByteArray();
    if (Arrays.equals(actual, recorded)) {
      return Optional.empty();
    }
    return Optional.of(
        "data_hash in the header is "
            + HEX.formatHex(recorded)
            + " but the envelopes hash to "
            + HEX.formatHex(actual));
  }
}
