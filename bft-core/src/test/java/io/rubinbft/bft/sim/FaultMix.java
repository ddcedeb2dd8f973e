package io.rubinbft.bft.sim;

/** The kinds of fault a sweep seed draws from. */
public enum FaultMix {
  /** A reliable network: the normal case and pipelining only. */
  CLEAN,
  /** Drops, duplicates and long delays (reordering). */
  LOSSY,
  /** Isolated replicas and one-way link cuts, healed and cut again. */
  PARTITIONS,
  /** Crashes and restarts of any replicas, all of them included, with lost unsynced writes. */
  CRASHES,
  /** Up to f Byzantine replicas on a reliable network. */
  BYZANTINE,
  /** All of the above at once. */
  EVERYTHING
}
