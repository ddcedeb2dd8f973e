package io.rubinbft.bft;

import io.rubinbft.bft.message.Message;
import java.util.OptionalInt;

/** A message to send: to one replica, or to every other replica when {@code to} is empty. */
public record Outbound(Message message, OptionalInt to) {

  public static Outbound toAll(Message message) {
    return new Outbound(message, OptionalInt.empty());
  }

  public static Outbound toReplica(int replica, Message message) {
    return new Outbound(message, OptionalInt.of(replica));
  }
}
