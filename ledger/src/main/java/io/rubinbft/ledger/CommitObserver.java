package io.rubinbft.ledger;

/** Told how long each block append took to commit, for the node's metrics. */
@FunctionalInterface
public interface CommitObserver {

  /** Observes nothing. */
  CommitObserver NONE = (channel, nanos) -> {};

  /**
   * Block appended to {@code channel}: its write batch (block and tx index) took {@code nanos} to
   * build and write.
   */
  void committed(String channel, long nanos);
}
