package io.rubinbft.net.cli;

import java.util.Arrays;

/**
 * One echo run: round-trip latencies of sequential messages and the rate of a pipelined stream.
 *
 * @param roundTripNanos every measured round trip
 * @param streamedMessages messages echoed in the throughput phase
 * @param streamNanos how long that took
 * @param messageBytes the message size
 */
record EchoResult(
    long[] roundTripNanos, long streamedMessages, long streamNanos, int messageBytes) {

  double percentileMicros(double percentile) {
    long[] sorted = roundTripNanos.clone();
    Arrays.sort(sorted);
    int index = (int) Math.min(sorted.length - 1, Math.ceil(percentile * sorted.length) - 1);
    return sorted[Math.max(0, index)] / 1000.0;
  }

  /** Payload megabytes per second, one way. */
  double megabytesPerSecond() {
    return streamedMessages * (double) messageBytes / (streamNanos / 1e9) / 1e6;
  }
}
