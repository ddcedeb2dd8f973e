package io.rubinbft.orderer.cluster;

import io.rubinbft.net.SelectorStats;
import java.net.InetSocketAddress;
import java.util.Set;

/**
 * rdma-net's counters for the node's replica network at one moment, as plain data for metrics.
 *
 * @param selector the selector's counters and one entry per live channel
 * @param dialed the peer addresses this node dials: a channel to one of them is outbound, any other
 *     channel was accepted from a peer
 */
public record NetworkTraffic(SelectorStats selector, Set<InetSocketAddress> dialed) {

  public NetworkTraffic {
    dialed = Set.copyOf(dialed);
  }
}
