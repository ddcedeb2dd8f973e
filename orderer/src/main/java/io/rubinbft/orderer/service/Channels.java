package io.rubinbft.orderer.service;

import java.util.Optional;

/** The channels this node serves to clients right now. Thread-safe. */
public interface Channels {

  /**
   * The channel named {@code channelId}, empty when this node does not serve it (never joined,
   * removed). A removed channel must stop being returned here no later than its ledger is removed,
   * so that Deliver streams waiting on it end with SERVICE_UNAVAILABLE.
   */
  Optional<ServedChannel> channel(String channelId);
}
