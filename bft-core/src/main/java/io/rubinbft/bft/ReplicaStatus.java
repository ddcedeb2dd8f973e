package io.rubinbft.bft;

import java.util.Map;

/**
 * A snapshot for monitoring (docs/ARCHITECTURE.md principle 14).
 *
 * @param view current view (or the view being changed to while {@code viewInstalled} is false)
 * @param viewInstalled whether the replica works in {@code view} or is still changing to it
 * @param primary the primary of {@code view}
 * @param lastDelivered highest sequence handed to the application
 * @param lowWatermark h, the stable checkpoint
 * @param highWatermark h + L
 * @param pendingRequests requests waiting in the pool
 * @param drops messages dropped at the boundary, counted by reason
 */
public record ReplicaStatus(
    long view,
    boolean viewInstalled,
    int primary,
    long lastDelivered,
    long lowWatermark,
    long highWatermark,
    int pendingRequests,
    Map<String, Long> drops,
    boolean complaining) {

  /**
   * Whether the replica's view may still make progress: installed, and not asking for the next one.
   * A replica whose complaint no f + 1 others join stays in its view (it leaves only with them), so
   * complaining counts as stalled, as a view change that does not install does.
   */
  public boolean progressing() {
    return viewInstalled && !complaining;
  }
}
