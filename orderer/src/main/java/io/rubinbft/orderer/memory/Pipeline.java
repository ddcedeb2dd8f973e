package io.rubinbft.orderer.memory;

import io.rubinbft.bft.wire.WireLimits;
import java.util.List;

/**
 * How deep a channel pipelines and how large its proposals may be. View changes and new views name
 * proposals by digest (bft-core/README.md "Bodies by digest"), so no consensus message holds more
 * than one proposal's body, besides a state-transfer answer of at most 4 MiB beyond its first
 * decision: the proposal cap is the channel's batch limit as long as one proposal, its block header
 * and metadata and such an answer fit the transport (a 10 MB AbsoluteMaxBytes does, with any
 * consenter count), and is the largest that fits otherwise.
 *
 * <p>The window is counted in the bytes actually in flight (bft-core/README.md "Window in bytes"):
 * the window in sequences is the deepest whose messages fit with that cap (64, checkpoints every 8
 * or earlier by bytes), and a primary proposes only while the proposals above its stable checkpoint
 * and a full batch fit {@code windowBytes}, one and a half proposals at the cap and at least {@link
 * MessageLimits#WINDOW_BYTES_LEAST}. A backup holds at most twice that above its stable checkpoint,
 * and {@code retainedDecisions} decided blocks at the cap fit {@code windowBytes}: so a channel of
 * Fabric's default 10 MB blocks holds at most 4 blocks at the cap, as its window of 2 did, and a
 * channel of small blocks keeps 64 in flight with a checkpoint every 8. It lives beside the byte
 * budgets because both the replica ({@code consensus.ChannelReplicas}) and the node's sizing
 * ({@link HeapSize}) derive it, from the same config the same way.
 *
 * @param window proposals in flight at most (bft-core's L)
 * @param checkpointInterval a checkpoint at least every this many sequences (K; the window holds
 *     two)
 * @param batchMaxBytes request bytes in one proposal at most
 * @param requestMaxBytes bytes of one request at most
 * @param windowBytes request bytes of the proposals above the stable checkpoint a primary keeps in
 *     flight at most (bft-core's W; a backup holds twice that at most)
 * @param retainedDecisions decisions kept in memory for peers catching up (older ones are read from
 *     the ledger)
 */
public record Pipeline(
    int window,
    int checkpointInterval,
    long batchMaxBytes,
    int requestMaxBytes,
    long windowBytes,
    int retainedDecisions) {

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
   * transport ({@link MessageLimits#CONSENSUS_MAX_MESSAGE_BYTES}). Every consenter derives the same
   * from the same config.
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
        MessageLimits.WINDOW_BYTES_LEAST);
  }

  /**
   * The proposal cap whose largest message fits {@code maxMessageBytes} (the most any window
   * allows), the deepest window whose messages fit with that cap, and the window's bytes: one and a
   * half proposals at the cap, at least {@code leastWindowBytes}.
   *
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
      long leastWindowBytes) {
    long cap = 0;
    int[] chosen = null;
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
      // A shallower window never lets a smaller cap through: keep the deepest with the largest.
      if (fit > cap) {
        cap = fit;
        chosen = shape;
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
    long windowBytes = Math.max(leastWindowBytes, cap + Math.max(1, cap / 2));
    int retained = (int) Math.max(1, Math.min(chosen[0], windowBytes / cap));
    return new Pipeline(
        chosen[0], chosen[1], cap, (int) Math.min(requestMaxBytes, cap), windowBytes, retained);
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
