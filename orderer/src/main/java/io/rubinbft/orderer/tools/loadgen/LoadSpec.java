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
 * @param broadcastTimeout in {@link SubmitMode#GATEWAY}, how long each orderer's Broadcast stream
 *     may stay unanswered before it is cancelled and counts as a failure, as Fabric's gateway
 *     cancels the streams still open when its {@code peer.gateway.broadcastTimeout} passes (a
 *     submit whose quorum has not answered by then fails); at most {@code timeout}
 */
public record LoadSpec(
    String channel,
    long transactions,
    int payloadBytes,
    int streams,
    int quorum,
    OptionalDouble ratePerSecond,
    Duration timeout,
    SubmitMode mode,
    Duration broadcastTimeout) {

  public LoadSpec {
    if (transactions < 1 || payloadBytes < 0 || streams < 1 || quorum < 1 || mode == null) {
      throw new IllegalArgumentException(
          "transactions, streams and quorum must be positive, the payload size not negative and"
              + " the mode given");
    }
    if (!broadcastTimeout.isPositive() || broadcastTimeout.compareTo(timeout) > 0) {
      throw new IllegalArgumentException(
          "the broadcast timeout is "
              + broadcastTimeout
              + " but must be positive and at most the timeout, "
              + timeout);
    }
  }

  /** A run whose Broadcast streams may stay unanswered for the whole {@code timeout}. */
  public LoadSpec(
      String channel,
      long transactions,
      int payloadBytes,
      int streams,
      int quorum,
      OptionalDouble ratePerSecond,
      Duration timeout,
      SubmitMode mode) {
    this(
        channel,
        transactions,
        payloadBytes,
        streams,
        quorum,
        ratePerSecond,
        timeout,
        mode,
        timeout);
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
