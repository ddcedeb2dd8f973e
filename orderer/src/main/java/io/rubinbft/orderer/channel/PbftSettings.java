package io.rubinbft.orderer.channel;

import io.rubinbft.orderer.config.GoDuration;
import java.time.Duration;
import org.hyperledger.fabric.protos.orderer.smartbft.Options;

/**
 * The PBFT settings a channel's config determines: SmartBFT's options ({@code
 * ConsensusType.metadata}) and BatchSize translated to what our replicas run with. Which option
 * maps to which setting, and which options have no counterpart, is in docs/CONFIG-MAPPING.md.
 *
 * @param batchMaxCount envelopes per block, from BatchSize.MaxMessageCount (as Fabric's SmartBFT
 *     chain overrides {@code request_batch_max_count} with it)
 * @param batchMaxBytes envelope bytes per block, from BatchSize.AbsoluteMaxBytes (overrides {@code
 *     request_batch_max_bytes})
 * @param batchMaxInterval the primary cuts a partial batch this long after its first pending
 *     request ({@code request_batch_max_interval}); Fabric's BatchTimeout is not used by BFT
 * @param requestMaxBytes largest single envelope the pool accepts ({@code request_max_bytes}, 0 =
 *     {@code batchMaxBytes})
 * @param requestPoolSize bound of the per-channel request pool; when full, Broadcast answers
 *     SERVICE_UNAVAILABLE ({@code request_pool_size})
 * @param requestForwardTimeout a backup forwards a request to the primary if it is not ordered by
 *     then ({@code request_forward_timeout})
 * @param requestTimeout PBFT's request timer: a backup suspects the primary and starts a view
 *     change if a request it holds is not ordered by then ({@code request_complain_timeout})
 * @param requestAutoRemoveTimeout a pending request still not ordered by then is dropped from the
 *     pool ({@code request_auto_remove_timeout})
 * @param viewChangeTimeout PBFT's view-change timer: how long to wait for the new view before
 *     moving to the next one ({@code view_change_timeout})
 * @param viewChangeResendInterval a replica waiting in a view change re-sends its VIEW-CHANGE this
 *     often ({@code view_change_resend_interval})
 */
public record PbftSettings(
    int batchMaxCount,
    long batchMaxBytes,
    Duration batchMaxInterval,
    long requestMaxBytes,
    int requestPoolSize,
    Duration requestForwardTimeout,
    Duration requestTimeout,
    Duration requestAutoRemoveTimeout,
    Duration viewChangeTimeout,
    Duration viewChangeResendInterval) {

  /**
   * The least time between two of the primary's cuts of a partial block: this fraction of {@code
   * request_batch_max_interval} (SmartBFT has no option of its own for it; docs/CONFIG-MAPPING.md).
   */
  static final int CUT_SPACING_DIVISOR = 2;

  /**
   * How long after its previous cut the primary may cut a partial block: the block is cut at once
   * when full or when nothing was cut for this long, else it waits until then. Fewer, larger blocks
   * under a steady trickle of transactions, since a peer pays its validation and commit per block
   * (BENCHMARKS.md "A Fabric peer behind the orderer").
   */
  public Duration cutSpacing() {
    return batchMaxInterval.dividedBy(CUT_SPACING_DIVISOR);
  }

  /**
   * Translates SmartBFT options, with the checks SmartBFT's {@code Configuration.Validate} makes on
   * the options that have a counterpart here.
   *
   * @throws IllegalArgumentException naming the option that is missing or out of range
   */
  public static PbftSettings from(Options options, BatchLimits batch) {
    if (options.getLeaderRotation() == Options.Rotation.ROTATION_ON) {
      // Fabric v3 itself refuses ROTATION_ON in config updates; PBFT keeps a stable primary.
      throw new IllegalArgumentException(
          "SmartBFT option leader_rotation is ROTATION_ON but only ROTATION_OFF or unspecified is"
              + " supported (PBFT changes its primary only by view change)");
    }
    long requestMaxBytes =
        options.getRequestMaxBytes() == 0 ? batch.absoluteMaxBytes() : options.getRequestMaxBytes();
    if (requestMaxBytes > batch.absoluteMaxBytes()) {
      throw new IllegalArgumentException(
          "SmartBFT option request_max_bytes is "
              + requestMaxBytes
              + " but must not exceed BatchSize.AbsoluteMaxBytes ("
              + batch.absoluteMaxBytes()
              + ")");
    }
    PbftSettings settings =
        new PbftSettings(
            batch.maxMessageCount(),
            batch.absoluteMaxBytes(),
            positive("request_batch_max_interval", options.getRequestBatchMaxInterval()),
            requestMaxBytes,
            poolSize(options.getRequestPoolSize()),
            positive("request_forward_timeout", options.getRequestForwardTimeout()),
            positive("request_complain_timeout", options.getRequestComplainTimeout()),
            positive("request_auto_remove_timeout", options.getRequestAutoRemoveTimeout()),
            positive("view_change_timeout", options.getViewChangeTimeout()),
            positive("view_change_resend_interval", options.getViewChangeResendInterval()));
    settings.checkOrder();
    return settings;
  }

  private void checkOrder() {
    notAfter(
        "request_forward_timeout",
        requestForwardTimeout,
        "request_complain_timeout",
        requestTimeout);
    notAfter(
        "request_complain_timeout",
        requestTimeout,
        "request_auto_remove_timeout",
        requestAutoRemoveTimeout);
    notAfter(
        "view_change_resend_interval",
        viewChangeResendInterval,
        "view_change_timeout",
        viewChangeTimeout);
  }

  private static void notAfter(String shorter, Duration a, String longer, Duration b) {
    if (a.compareTo(b) > 0) {
      throw new IllegalArgumentException(
          "SmartBFT option " + shorter + " (" + a + ") is longer than " + longer + " (" + b + ")");
    }
  }

  private static Duration positive(String option, String text) {
    Duration duration;
    try {
      duration = GoDuration.parse(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("SmartBFT option " + option + ": " + e.getMessage(), e);
    }
    if (duration.isZero()) {
      throw new IllegalArgumentException("SmartBFT option " + option + " must be greater than 0");
    }
    return duration;
  }

  private static int poolSize(long size) {
    if (size < 1 || size > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "SmartBFT option request_pool_size is " + size + " but must be between 1 and 2^31-1");
    }
    return (int) size;
  }
}
