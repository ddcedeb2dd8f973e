package io.rubinbft.ledger;

/**
 * What an append waits for before it returns.
 *
 * <p>Both survive a crash of the process (kill -9): RocksDB hands every write to the operating
 * system before the append returns. Only {@link #SYNCED} survives a crash of the machine or a power
 * loss; after one, an unsynced suffix of the chain may be gone, never a block in the middle
 * (RocksDB recovers a prefix of its write-ahead log).
 */
public enum Durability {
  /** fsync (RocksDB {@code WriteOptions.setSync(true)}) before returning. */
  SYNCED,
  /** Written to the operating system's page cache; flushed to disk later by RocksDB or the OS. */
  UNSYNCED
}
