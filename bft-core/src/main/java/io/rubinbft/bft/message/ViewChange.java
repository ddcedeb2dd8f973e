package io.rubinbft.bft.message;

import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Digest;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A replica's request to move to {@code newView}: its stable checkpoint with proof (empty for the
 * genesis checkpoint at 0), its latest decision above that checkpoint with the commit certificate
 * ({@code lastDecision}, null if none), and its prepared certificates above that decision.
 */
public record ViewChange(
    long newView,
    long stableSequence,
    Digest stableDigest,
    List<Checkpoint> stableProof,
    @Nullable Decision lastDecision,
    List<PreparedCertificate> prepared,
    int sender,
    byte[] signature)
    implements Message {

  public ViewChange {
    stableProof = List.copyOf(stableProof);
    prepared = List.copyOf(prepared);
  }

  /**
   * This view change with {@code signature} in place of its own (the signed one is made from the
   * unsigned, whose bytes the signature covers).
   */
  public ViewChange withSignature(byte[] signature) {
    return new ViewChange(
        newView,
        stableSequence,
        stableDigest,
        stableProof,
        lastDecision,
        prepared,
        sender,
        signature);
  }
}
