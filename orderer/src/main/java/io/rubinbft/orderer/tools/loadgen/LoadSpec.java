package io.rubinbft.orderer.tools.loadgen;

import java.time.Duration;
import java.util.OptionalDouble;

/**
 * One load run.
 *
 * @param channel the channel to submit to
 * @param transactions how many transactions to submit
 * @param payloadBytes random payload bytes per transaction (the envelope adds ~700 B of headers and
 *     signature with a cryptogen identity)
 * @param streams concurrent submitters (in {@link SubmitMode#PIPELINED}, each with one Broadcast
 *     stream per orderer)
 * @param quorum answers that count as success (Fabric's gateway's rule) a submission waits for
 * @param ratePerSecond a fixed submission rate, or empty to submit as fast as acknowledged
 * @param timeout how long to wait for an acknowledgement, and for the last delivery after the last
 *     submission
 * @param mode how each envelope goes to the orderers
 */
public record LoadSpec(
    String channel,
    long transactions,
    int payloadBytes,
    int streams,
    int quorum,
    OptionalDouble ratePerSecond,
    Duration timeout,
    SubmitMode mode) {

  public LoadSpec {
    if (transactions < 1 || payloadBytes < 0 || streams < 1 || quorum < 1 || mode == null) {
      throw new IllegalArgumentException(
          "transactions, streams and quorum must be positive, the payload size not negative and"
              + " the mode given");
    }
  }

  /** A run in the default mode, {@link SubmitMode#GATEWAY}: as Fabric's clients submit. */
  public LoadSpec(
      String channel,
      long transactions,
      int payloadBytes,
      int streams,
      int quorum,
      OptionalDouble ratePerSecond,
      Duration timeout) {
    this(
        channel,
        transactions,
        payloadBytes,
        streams,
        quorum,
        ratePerSecond,
        timeout,
        SubmitMode.GATEWAY);
  }
}
