package io.rubinbft.orderer.tools.bootstrap;

import io.rubinbft.orderer.channel.ChannelIds;

/**
 * What the local cluster is made of: the channel, the number of consenters (one orderer
 * organization, OrdererMSP at example.com; one application organization, Org1MSP at
 * org1.example.com, with a peer identity and one client user), their ports, and the channel's
 * BatchSize.MaxMessageCount.
 */
public record LocalNetworkSpec(String channelId, int nodes, PortPlan ports, int maxMessageCount) {

  /** A bound on what one machine's loopback cluster can be; BFT needs 3f+1, so 4 is typical. */
  public static final int MAX_NODES = 64;

  public LocalNetworkSpec {
    ChannelIds.invalidReason(channelId)
        .ifPresent(
            reason -> {
              throw new IllegalArgumentException("channel name is not valid: " + reason);
            });
    if (nodes < 1 || nodes > MAX_NODES) {
      throw new IllegalArgumentException(
          "node count is " + nodes + " but must be in 1.." + MAX_NODES);
    }
    ports.check(nodes);
    if (maxMessageCount < 1) {
      throw new IllegalArgumentException(
          "max message count is " + maxMessageCount + " but must be at least 1");
    }
  }
}
