package io.rubinbft.ledger;

import java.nio.file.Path;

/**
 * Where a block store lives and its limits.
 *
 * @param directory the RocksDB directory (created if missing)
 * @param maxBlockBytes the largest block an append accepts
 * @param maxChannels the most channels the store holds
 * @param maxHeightListeners the most height listeners per channel
 */
public record BlockStoreConfig(
    Path directory, int maxBlockBytes, int maxChannels, int maxHeightListeners) {

  /** Fabric's gRPC limit on a message, so any block Fabric can deliver fits. */
  public static final int DEFAULT_MAX_BLOCK_BYTES = 100 * 1024 * 1024;

  /**
   * The heap each channel's tx id filter holds at most (a Bloom filter of up to 1 Mi tx ids in
   * front of RocksDB's; past them the channel's lookups are answered by RocksDB's filters, which
   * live in the block cache of the ledger's native budget).
   */
  public static final long TX_ID_FILTER_HEAP_BYTES = TxIdFilter.MAX_HEAP_BYTES;

  public BlockStoreConfig {
    if (maxBlockBytes <= 0 || maxChannels <= 0 || maxHeightListeners <= 0) {
      throw new IllegalArgumentException(
          "limits must be positive: maxBlockBytes "
              + maxBlockBytes
              + ", maxChannels "
              + maxChannels
              + ", maxHeightListeners "
              + maxHeightListeners);
    }
  }

  public static BlockStoreConfig defaults(Path directory) {
    return new BlockStoreConfig(directory, DEFAULT_MAX_BLOCK_BYTES, 1024, 4096);
  }
}
