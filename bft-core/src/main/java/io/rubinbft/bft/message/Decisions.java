package io.rubinbft.bft.message;

import io.rubinbft.bft.CommitSignature;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Request;
import java.util.List;

/**
 * State transfer answer: consecutive decisions with their commit certificates, cut by {@link
 * Budget}: at most {@link #MAX_ANSWER_BYTES} of them unless the first alone is larger, and at most
 * {@link #MAX_COUNT}.
 */
public record Decisions(List<Decision> decisions, int sender) implements Message {

  /**
   * Most bytes of decisions ({@link #bytes}) in one answer, whether from memory or from the host's
   * ledger (at least one decision is always sent): a peer catching up costs this much per answer,
   * not a window of proposals, so an answer fits a transport message whatever the window.
   */
  public static final long MAX_ANSWER_BYTES = 4 << 20;

  /**
   * Most decisions in one answer, and the count a decoder accepts (it allocates a list of at most
   * this many before it reads them). Small decisions are many to a message: an answer is cut by its
   * bytes, not by the window, so a replica far behind moves many windows per answer. With this
   * bound a Fabric block of one small envelope (a few KB with its header and signatures) already
   * meets {@link #MAX_ANSWER_BYTES} first, and a message of tiny decisions holds no more objects
   * than one proposal of many requests does.
   */
  public static final int MAX_COUNT = 1024;

  /**
   * The encoded size of a decision (WIRE.md): its sequence, predecessor, requests, payload, digest,
   * view and commit signatures. Exact, so that {@link #MAX_ANSWER_BYTES} bounds the encoded answer.
   */
  public static long bytes(Decision decision) {
    long bytes =
        (long) Long.BYTES
            + Integer.BYTES
            + decision.proposal().previous().length()
            + Integer.BYTES
            + Integer.BYTES
            + decision.proposal().payload().length
            + Integer.BYTES
            + decision.digest().length()
            + Long.BYTES
            + Integer.BYTES;
    for (Request request : decision.proposal().requests()) {
      bytes += 3L * Integer.BYTES + request.size();
    }
    for (CommitSignature signature : decision.certificate()) {
      bytes += 2L * Integer.BYTES + signature.signature().length;
    }
    return bytes;
  }

  public Decisions {
    decisions = List.copyOf(decisions);
  }

  /**
   * Cuts an answer as it is built, decision by decision, wherever the decisions come from (memory
   * or a host's ledger): the first always goes in, each next one while the answer stays within its
   * bytes (at most {@link #MAX_ANSWER_BYTES}) and count (at most {@link #MAX_COUNT}).
   */
  public static final class Budget {

    private final int maxCount;
    private final long maxBytes;
    private long bytes;
    private int count;

    /**
     * At most {@code maxCount} decisions and {@code maxBytes} of them beyond the first, never more
     * than {@link #MAX_COUNT} and {@link #MAX_ANSWER_BYTES}.
     */
    public Budget(int maxCount, long maxBytes) {
      this.maxCount = Math.min(maxCount, MAX_COUNT);
      this.maxBytes = Math.min(maxBytes, MAX_ANSWER_BYTES);
    }

    /** Whether another decision may still go in (the count is not reached). */
    public boolean open() {
      return count < maxCount;
    }

    /** Takes {@code decision} into the answer; false, taking nothing, when it does not fit. */
    public boolean take(Decision decision) {
      if (!open()) {
        return false;
      }
      long next = bytes + bytes(decision);
      if (count > 0 && next > maxBytes) {
        return false;
      }
      bytes = next;
      count++;
      return true;
    }
  }
}
