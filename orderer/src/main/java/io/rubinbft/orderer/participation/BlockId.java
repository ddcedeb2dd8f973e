package io.rubinbft.orderer.participation;

import io.rubinbft.orderer.block.LastConfigIndex;
import org.hyperledger.fabric.protos.common.Block;

/**
 * Which block {@code GET /participation/v1/channels/{ch}/blocks/{id}} asks for, as Fabric's
 * ValidateFetchBlockID reads {@code id}: newest, oldest, config (the newest config block) or a
 * block number.
 */
public sealed interface BlockId {

  /** The last block of the chain. */
  record Newest() implements BlockId {}

  /** Block 0. */
  record Oldest() implements BlockId {}

  /** The config block the newest block's last config index names. */
  record LatestConfig() implements BlockId {}

  /** Block {@code number}. */
  record Numbered(long number) implements BlockId {}

  /** The number of the block this id names in a chain whose last block is {@code newest}. */
  default long numberIn(Block newest) {
    return switch (this) {
      case Newest n -> newest.getHeader().getNumber();
      case Oldest o -> 0;
      case LatestConfig c -> LastConfigIndex.of(newest);
      case Numbered n -> n.number();
    };
  }

  /**
   * @throws IllegalArgumentException with Fabric's text when {@code id} is none of those
   */
  static BlockId parse(String id) {
    switch (id) {
      case "" -> throw new IllegalArgumentException("block ID illegal, cannot be empty");
      case "newest" -> {
        return new Newest();
      }
      case "oldest" -> {
        return new Oldest();
      }
      case "config" -> {
        return new LatestConfig();
      }
      default -> {
        try {
          return new Numbered(Long.parseLong(id));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(
              "'" + id + "' not equal <newest|oldest|config|(number)>", e);
        }
      }
    }
  }
}
