package io.rubinbft.orderer.service;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** The node's channels as a map the test changes (the channel runtime's job in production). */
final class TestChannels implements Channels {

  private final Map<String, ServedChannel> channels = new ConcurrentHashMap<>();

  @Override
  public Optional<ServedChannel> channel(String channelId) {
    return Optional.ofNullable(channels.get(channelId));
  }

  void serve(String channelId, ServedChannel channel) {
    channels.put(channelId, channel);
  }

  void stopServing(String channelId) {
    channels.remove(channelId);
  }
}
