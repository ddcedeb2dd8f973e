package io.rubinbft.bft.spi;

import io.rubinbft.bft.Proposal;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** The backups' application check of every proposal before they prepare it. */
public interface ProposalVerifier {

  /**
   * Why {@code proposal} is unacceptable after {@code previous} (the anchor's proposal for an
   * epoch's first sequence, null for the genesis epoch's sequence 1), or empty if it is acceptable.
   * Must not throw on malformed payloads.
   */
  Optional<String> invalidReason(Proposal proposal, @Nullable Proposal previous);
}
