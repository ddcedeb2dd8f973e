package io.rubinbft.orderer.channel;

/**
 * {@code /Channel/Orderer/BatchSize}. A BFT block holds at most {@code maxMessageCount} envelopes
 * and at most {@code absoluteMaxBytes} envelope bytes. {@code preferredMaxBytes} is validated as
 * Fabric does ({@code 0 < preferred <= absolute}) but does not shape BFT blocks: Fabric's SmartBFT
 * chain hands only the count and the absolute limit to its batcher (docs/CONFIG-MAPPING.md).
 */
public record BatchLimits(int maxMessageCount, long absoluteMaxBytes, long preferredMaxBytes) {

  public BatchLimits {
    if (maxMessageCount < 1) {
      throw new IllegalArgumentException(
          "MaxMessageCount is " + maxMessageCount + " but must be at least 1");
    }
    if (absoluteMaxBytes < 1) {
      throw new IllegalArgumentException(
          "AbsoluteMaxBytes is " + absoluteMaxBytes + " but must be at least 1");
    }
    if (preferredMaxBytes < 1 || preferredMaxBytes > absoluteMaxBytes) {
      throw new IllegalArgumentException(
          "PreferredMaxBytes is "
              + preferredMaxBytes
              + " but must be between 1 and AbsoluteMaxBytes ("
              + absoluteMaxBytes
              + ")");
    }
  }
}
