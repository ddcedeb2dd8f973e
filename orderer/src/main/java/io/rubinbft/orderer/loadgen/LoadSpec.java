package io.rubinbft.orderer.loadgen;

import java.time.Duration;
import java.util.OptionalDouble;

/**
 * One load run.
 *
 * @param channel the channel to submit to
 * @param transactions how many transactions to submit
 * @param payloadBytes random payload bytes per transaction (the envelope adds ~700 B of headers and
 *     signature with a cryptogen identity)
 * @param streams concurrent submitters, each with one Broadcast stream per orderer
 * @param quorum SUCCESS answers a submission waits for
 * @param ratePerSecond a fixed submission rate, or empty to submit as fast as acknowledged
 * @param timeout how long to wait for an acknowledgement, and for the last delivery after the last
 *     submission
 */
public record LoadSpec(
    String channel,
    long transactions,
    int payloadBytes,
    int streams,
    int quorum,
    OptionalDouble ratePerSecond,
    Duration timeout) {

  public LoadSpec {
    if (transactions < 1 || payloadBytes < 0 || streams < 1 || quorum < 1) {
      throw new IllegalArgumentException(
          "transactions, streams and quorum must be positive and the payload size not negative");
    }
  }
}
