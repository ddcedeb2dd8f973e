package io.rubinbft.bft.spi;

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
}
