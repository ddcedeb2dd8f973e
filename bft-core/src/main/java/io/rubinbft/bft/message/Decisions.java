package io.rubinbft.bft.message;

import io.rubinbft.bft.CommitSignature;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Request;
import java.util.List;

/**
 * State transfer answer: consecutive decisions with their commit certificates, at most {@link
 * #MAX_ANSWER_BYTES} of them unless the first alone is larger.
 */
public record Decisions(List<Decision> decisions, int sender) implements Message {

  /**
   * Most bytes of decisions ({@link #bytes}) in one answer, whether from memory or from the host's
   * ledger (at least one decision is always sent): a peer catching up costs this much per answer,
   * not a window of proposals, so an answer fits a transport message whatever the window.
   */
  public static final long MAX_ANSWER_BYTES = 4 << 20;

  /** About the encoded size of a decision: its requests, payload and commit signatures. */
  public static long bytes(Decision decision) {
    long bytes = 128L + decision.proposal().payload().length;
    for (Request request : decision.proposal().requests()) {
      bytes += 12L + request.size();
    }
    for (CommitSignature signature : decision.certificate()) {
      bytes += 8L + signature.signature().length;
    }
    return bytes;
  }

  public Decisions {
    decisions = List.copyOf(decisions);
  }
}
