package io.rubinbft.bft.spi;

import io.rubinbft.bft.BatchPolicy;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.Request;
import java.util.List;

/** The primary's application: builds the payload that goes with a batch (for Fabric, the block). */
public interface ProposalAssembler {

  /**
   * The payload for {@code batch} at {@code sequence}, chained to {@code previous} (the proposal at
   * {@code sequence - 1}, or {@code null} for sequence 1).
   */
  byte[] assemble(long sequence, List<Request> batch, Proposal previous);

  /**
   * How to cut the batch that follows {@code previous} (null for sequence 1). By default the
   * replica config's limits, every request batched with others.
   *
   * @param configured the replica config's limits
   */
  default BatchPolicy batchPolicy(Proposal previous, BatchPolicy configured) {
    return configured;
  }
}
