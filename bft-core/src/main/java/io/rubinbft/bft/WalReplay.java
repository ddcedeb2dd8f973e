package io.rubinbft.bft;

import java.util.function.Consumer;

/**
 * A write-ahead log's records, handed to {@link Replica#recover} one at a time in the order they
 * were persisted, so that recovery holds what the rebuilt replica keeps (its window) and never the
 * whole log: a host reads them from its log file as they are replayed. A list of records is one too
 * ({@code records::forEach}).
 */
@FunctionalInterface
public interface WalReplay {

  /** Hands every record to {@code into}, oldest first. */
  void forEach(Consumer<? super WalRecord> into);
}
