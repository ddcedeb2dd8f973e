package io.rubinbft.orderer.tools.loadgen;

import java.util.Optional;
import java.util.Set;
import org.HdrHistogram.Histogram;

/**
 * What the Deliver side of a run saw.
 *
 * @param blocks blocks received
 * @param deliveredTxIds the submitted transactions received
 * @param acceptedTxIds the transactions a quorum of orderers answered SUCCESS to
 * @param lost accepted transactions that were not received
 * @param duplicates transactions received more than once
 * @param foreign transactions in the blocks that this run did not submit
 * @param latencyMicros submit-to-delivery latency of each delivered transaction
 * @param lastDeliveryNanos System.nanoTime of the last block
 * @param problem the first chain, data-hash or signature failure, if any
 */
public record DeliveryStats(
    long blocks,
    Set<String> deliveredTxIds,
    Set<String> acceptedTxIds,
    long lost,
    long duplicates,
    long foreign,
    Histogram latencyMicros,
    long lastDeliveryNanos,
    Optional<String> problem) {

  /** Distinct submitted transactions received. */
  public long delivered() {
    return deliveredTxIds.size();
  }

  /**
   * Received transactions that no quorum of orderers took: ordered although the submit failed, e.g.
   * refused by orderers that answer a late copy "request already processed" (Fabric's) or whose
   * pool was full while the others took it.
   */
  public long deliveredUnaccepted() {
    return deliveredTxIds.stream().filter(txId -> !acceptedTxIds.contains(txId)).count();
  }
}
