package io.rubinbft.orderer.memory;

import io.rubinbft.bft.wire.WireLimits;
import java.util.List;

/**
 * How deep a channel pipelines and how large its proposals may be. View changes and new views name
 * proposals by digest (bft-core/README.md "Bodies by digest"), so no consensus message holds more
 * than one proposal's body, besides a state-transfer answer of at most 4 MiB beyond its first
 * decision: the proposal cap is the channel's batch limit as long as one proposal, its block header
 * and metadata and such an answer fit the transport (a 10 MB AbsoluteMaxBytes does, with any
 * consenter count), and is the largest that fits otherwise. The window is chosen for memory, not
 * for the message limit: a replica holds up to a window of proposals in flight and a window of
 * decided blocks for peers catching up, so the window is the deepest whose proposals at the cap
 * take at most {@code inFlightBytes}, and at least the smallest shape (2). It lives beside the byte
 * budgets because both the replica ({@code consensus.ChannelReplicas}) and the node's sizing
 * ({@link HeapSize}) derive it, from the same config the same way.
 *
 * @param window proposals in flight at most (bft-core's L)
 * @param checkpointInterval a checkpoint every this many sequences (K; the window holds two)
 * @param batchMaxBytes request bytes in one proposal at most
 * @param requestMaxBytes bytes of one request at most
 */
public record Pipeline(
    int window, int checkpointInterval, long batchMaxBytes, int requestMaxBytes) {

  /**
   * The shapes tried, deepest first: windows of 64 down to 16 with checkpoints every 8, then less.
   */
  private static final List<int[]> SHAPES =
      List.of(
          new int[] {64, 8},
          new int[] {56, 8},
          new int[] {48, 8},
          new int[] {40, 8},
          new int[] {32, 8},
          new int[] {24, 8},
          new int[] {16, 8},
          new int[] {8, 4},
          new int[] {4, 2},
          new int[] {2, 1});

  /**
   * The window and proposal limits of a channel with {@code replicas} consenters, at most {@code
   * batchMaxCount} envelopes and {@code batchMaxBytes} (AbsoluteMaxBytes) per block and envelopes
   * of at most {@code requestMaxBytes}: proposals as large as the batch limit while one fits the
   * transport ({@link MessageLimits#CONSENSUS_MAX_MESSAGE_BYTES}), and the deepest window those
   * proposals fit the channel's in-flight budget with ({@link
   * MessageLimits#PROPOSALS_IN_FLIGHT_BYTES}). Every consenter derives the same from the same
   * config.
   */
  public static Pipeline forChannel(
      int replicas, int batchMaxCount, long batchMaxBytes, long requestMaxBytes) {
    int requestMax = (int) Math.min(Integer.MAX_VALUE, requestMaxBytes);
    return fitting(
        replicas,
        batchMaxCount,
        Math.max(batchMaxBytes, requestMax),
        requestMax,
        MessageLimits.MAX_PAYLOAD_BYTES,
        MessageLimits.MAX_SIGNATURE_BYTES,
        MessageLimits.CONSENSUS_MAX_MESSAGE_BYTES,
        MessageLimits.PROPOSALS_IN_FLIGHT_BYTES);
  }

  /**
   * The proposal cap whose largest message fits {@code maxMessageBytes}, and the deepest window
   * whose proposals at that cap take at most {@code inFlightBytes}.
   *
   * @param inFlightBytes the proposal bytes a window may hold (a channel's memory budget for them)
   * @throws IllegalArgumentException when not even one request of one byte fits
   */
  public static Pipeline fitting(
      int replicas,
      int batchMaxCount,
      long batchMaxBytes,
      int requestMaxBytes,
      int maxPayloadBytes,
      int maxSignatureBytes,
      long maxMessageBytes,
      long inFlightBytes) {
    Pipeline chosen = null;
    for (int[] shape : SHAPES) {
      long fit =
          largestFittingProposal(
              replicas,
              batchMaxCount,
              batchMaxBytes,
              requestMaxBytes,
              maxPayloadBytes,
              maxSignatureBytes,
              shape[0],
              maxMessageBytes);
      if (fit < 1) {
        continue;
      }
      chosen = new Pipeline(shape[0], shape[1], fit, (int) Math.min(requestMaxBytes, fit));
      if ((long) shape[0] * fit <= inFlightBytes) {
        return chosen;
      }
    }
    if (chosen == null) {
      throw new IllegalArgumentException(
          "no proposal fits a message of "
              + maxMessageBytes
              + " bytes with "
              + replicas
              + " consenters and "
              + batchMaxCount
              + " envelopes per block");
    }
    return chosen;
  }

  /**
   * The largest batch bytes, at most {@code batchMaxBytes}, whose largest message fits; 0 if none.
   */
  private static long largestFittingProposal(
      int replicas,
      int batchMaxCount,
      long batchMaxBytes,
      int requestMaxBytes,
      int maxPayloadBytes,
      int maxSignatureBytes,
      int window,
      long maxMessageBytes) {
    long low = 0;
    long high = batchMaxBytes;
    while (low < high) {
      long middle = low + (high - low + 1) / 2;
      WireLimits limits =
          new WireLimits(
              replicas,
              batchMaxCount,
              (int) Math.min(requestMaxBytes, middle),
              middle,
              maxPayloadBytes,
              maxSignatureBytes,
              window,
              Integer.MAX_VALUE);
      if (limits.largestMessageBytes() <= maxMessageBytes) {
        low = middle;
      } else {
        high = middle - 1;
      }
    }
    return low;
  }
}
