package io.rubinbft.orderer.node;

import io.rubinbft.orderer.node.lifecycle.ChannelEvent;

/**
 * Where what runs for a channel (its replica, follower, onboarding or catch-up) reports news: to
 * the lifecycle thread, which drops it once that handle is no longer the channel's. Never blocks.
 */
@FunctionalInterface
interface ChannelNews {

  void tell(ChannelEvent event);
}
