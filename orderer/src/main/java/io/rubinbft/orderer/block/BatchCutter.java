package io.rubinbft.orderer.block;

import com.google.protobuf.ByteString;
import io.rubinbft.orderer.channel.BatchLimits;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Decides the primary's next batch from the pending requests, as Fabric's SmartBFT batcher and
 * assembler do together:
 *
 * <ul>
 *   <li>at most {@code MaxMessageCount} envelopes and at most {@code AbsoluteMaxBytes} envelope
 *       bytes; the batch stops before the first envelope that would exceed either;
 *   <li>a CONFIG envelope goes alone into its block, and ends the batch of envelopes before it;
 *   <li>a batch is due when it is full (one more envelope would not fit, or a CONFIG envelope
 *       follows) or when the batch interval has elapsed ({@code request_batch_max_interval});
 *   <li>{@code PreferredMaxBytes} plays no part: Fabric's SmartBFT chain passes only the count and
 *       the absolute limit to its batcher (docs/CONFIG-MAPPING.md).
 * </ul>
 *
 * <p>Pure and deterministic: the caller owns the pool, the timer, and removing the taken requests.
 */
public final class BatchCutter {

  private final BatchLimits limits;

  public BatchCutter(BatchLimits limits) {
    this.limits = limits;
  }

  /**
   * The batch due now from the head of {@code pending}, if any.
   *
   * @param intervalElapsed the batch interval has passed since the oldest pending request arrived,
   *     so a partial batch is cut
   * @throws IllegalStateException when the head request alone exceeds AbsoluteMaxBytes: ingress
   *     refuses such requests, and the pool must drop them when a config update lowers the limit
   */
  public Optional<Batch> next(List<PendingRequest> pending, boolean intervalElapsed) {
    if (pending.isEmpty()) {
      return Optional.empty();
    }
    PendingRequest head = pending.getFirst();
    if (head.size() > limits.absoluteMaxBytes()) {
      throw new IllegalStateException(
          "pending request of "
              + head.size()
              + " bytes exceeds AbsoluteMaxBytes ("
              + limits.absoluteMaxBytes()
              + ")");
    }
    if (head.config()) {
      return Optional.of(new Batch(List.of(head.envelope()), true));
    }
    List<ByteString> taken = new ArrayList<>();
    long bytes = 0;
    for (PendingRequest request : pending) {
      if (taken.size() == limits.maxMessageCount()
          || request.config()
          || bytes + request.size() > limits.absoluteMaxBytes()) {
        return Optional.of(new Batch(taken, false));
      }
      taken.add(request.envelope());
      bytes += request.size();
    }
    boolean full = taken.size() == limits.maxMessageCount() || bytes == limits.absoluteMaxBytes();
    return full || intervalElapsed ? Optional.of(new Batch(taken, false)) : Optional.empty();
  }
}
