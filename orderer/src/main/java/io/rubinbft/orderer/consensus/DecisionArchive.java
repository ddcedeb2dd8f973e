package io.rubinbft.orderer.consensus;

import io.rubinbft.bft.ArchiveRead;
import io.rubinbft.bft.Decision;
import java.util.List;

/**
 * Where a replica's host finds the decisions its replica no longer holds in memory, for peers
 * catching up (bft-core's {@link ArchiveRead}): the channel's ledger ({@link
 * LedgerDecisionArchive}). Read by the channel's {@link ArchiveReader}, off the replica thread.
 */
@FunctionalInterface
public interface DecisionArchive {

  /**
   * The decisions {@code read} asks for, cut as an answer is ({@code read.maxBytes()}, at least
   * one), the first chained to {@code read.previous()}; empty when the archive holds none of them.
   */
  List<Decision> decisions(ArchiveRead read);
}
