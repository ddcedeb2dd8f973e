package io.rubinbft.bft.spi;

import io.rubinbft.bft.BatchPolicy;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.Request;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** The primary's application: builds the payload that goes with a batch (for Fabric, the block). */
public interface ProposalAssembler {

  /**
   * The payload for {@code batch} at {@code sequence}, chained to {@code previous} (the proposal at
   * {@code sequence - 1}: for an epoch's first sequence its anchor's, {@code null} only for the
   * genesis epoch's sequence 1).
   */
  byte[] assemble(long sequence, List<Request> batch, @Nullable Proposal previous);

  /**
   * How to cut the batch that follows {@code previous} (null for the genesis epoch's sequence 1).
   * By default the replica config's limits, every request batched with others.
   *
   * @param configured the replica config's limits
   */
  default BatchPolicy batchPolicy(@Nullable Proposal previous, BatchPolicy configured) {
    return configured;
  }

  /**
   * Whether {@code proposal} ends the epoch once executed: exactly the host's switch rule (for
   * Fabric, a config block that changes the consenter set or a consensus parameter), a pure
   * function of the proposal, as every replica must answer alike. Nothing is proposed, accepted or
   * signed after such a proposal in its epoch: no correct replica ever signs a commit past the
   * epoch's end, so no quorum of commit signatures can exist there (commit signatures are opaque
   * and do not name the epoch). By default no proposal ends its epoch.
   */
  default boolean endsEpoch(Proposal proposal) {
    return false;
  }
}
