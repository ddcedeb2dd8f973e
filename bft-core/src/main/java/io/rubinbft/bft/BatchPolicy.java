package io.rubinbft.bft;

import java.util.function.Function;

/**
 * How a primary cuts its next batch: the limits in force for that proposal and where each pending
 * request may go. The application decides, since its configuration can change from one proposal to
 * the next (a Fabric config block changes BatchSize and who may write, and stands alone).
 *
 * @param maxCount most requests in the batch
 * @param maxBytes most request bytes ({@link Request#size()}) in the batch
 * @param placement where a pending request may go; deterministic for a request and a previous
 *     proposal
 */
public record BatchPolicy(int maxCount, long maxBytes, Function<Request, Placement> placement) {

  /** Where a pending request may go in the next batch. */
  public enum Placement {
    /** Batched with other requests. */
    WITH_OTHERS,
    /** Alone in a batch of its own: a batch stops before it, or holds only it. */
    ALONE,
    /** Nowhere any more (no longer valid): it leaves the pool without being ordered. */
    DROP
  }

  public BatchPolicy {
    if (maxCount < 1 || maxBytes < 1) {
      throw new IllegalArgumentException(
          "batch limits must be positive, got "
              + maxCount
              + " requests and "
              + maxBytes
              + " bytes");
    }
  }

  /** The replica config's limits, every request batched with others. */
  public static BatchPolicy uniform(int maxCount, long maxBytes) {
    return new BatchPolicy(maxCount, maxBytes, request -> Placement.WITH_OTHERS);
  }
}
