package io.rubinbft.orderer.metrics;

import io.rubinbft.bft.ReplicaStatus;
import io.rubinbft.orderer.consensus.ForwardCounts;
import io.rubinbft.orderer.consensus.ReplicaProgress;
import java.util.Map;

/**
 * One served channel as the metrics read it at scrape time.
 *
 * @param channel the channel's name
 * @param status the replica's state as of its last step
 * @param leaderId the consenter id (from the channel config) of the primary of the current view
 * @param leader whether this node is that primary
 * @param progress what the replica accepted, installed and decided since start
 * @param droppedPeerMessages consensus messages from peers dropped before the replica saw them
 * @param hostDrops those drops by reason (another epoch's, a non-member's, undecodable, queue full)
 * @param epoch the consensus epoch the replica runs: the config block that started it
 * @param clusterSize the epoch's consenters
 * @param member whether this node is a consenter of that epoch (false: it follows the channel)
 * @param forwards client envelopes forwarded to other consenters and received from them
 */
public record ChannelView(
    String channel,
    ReplicaStatus status,
    long leaderId,
    boolean leader,
    ReplicaProgress progress,
    long droppedPeerMessages,
    Map<String, Long> hostDrops,
    long epoch,
    int clusterSize,
    boolean member,
    ForwardCounts forwards) {

  public ChannelView {
    hostDrops = Map.copyOf(hostDrops);
  }
}
