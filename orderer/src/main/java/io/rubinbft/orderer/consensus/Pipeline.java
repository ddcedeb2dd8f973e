package io.rubinbft.orderer.consensus;

import io.rubinbft.bft.wire.WireLimits;
import java.util.List;

/**
 * How deep a channel pipelines and how large its proposals may be, chosen so that the largest
 * message a correct replica sends fits the transport. That message is a new view: a view change
 * from each of the n replicas, each carrying up to a window of prepared proposals, plus the
 * re-proposals; so it grows with n x window x proposal size, and a channel whose BatchSize allows
 * 10 MB blocks cannot keep a window of 64 (or even 2) of them under a 16 MiB transport message. The
 * window therefore shrinks for large proposals, down to the smallest window whose proposals still
 * hold {@link #preferredMinProposal} bytes; when even the smallest window cannot carry the
 * channel's batch limit, proposals (and single requests) are capped at what it can carry: a block
 * then holds fewer envelopes than BatchSize allows (Fabric's limits are maxima), and an envelope
 * larger than the cap is refused with its size and the cap.
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
   * The deepest pipeline for these limits whose largest message fits {@code maxMessageBytes}.
   *
   * @param preferredMinProposal the proposal bytes a window is shrunk for (when the channel's batch
   *     limit is at least that large)
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
      long preferredMinProposal) {
    long wanted = Math.min(batchMaxBytes, preferredMinProposal);
    Pipeline smallest = null;
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
      smallest =
          fit < 1
              ? null
              : new Pipeline(shape[0], shape[1], fit, (int) Math.min(requestMaxBytes, fit));
      if (smallest != null && fit >= wanted) {
        return smallest;
      }
    }
    if (smallest == null) {
      throw new IllegalArgumentException(
          "no proposal fits a message of "
              + maxMessageBytes
              + " bytes with "
              + replicas
              + " consenters and "
              + batchMaxCount
              + " envelopes per block");
    }
    return smallest;
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
