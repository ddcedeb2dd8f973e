package io.rubinbft.bft;

import io.rubinbft.bft.message.Message;

/** Input to {@link Replica#step}. */
public sealed interface Event {

  /** A client request reached this replica. */
  record ClientRequest(Request request) implements Event {}

  /** A message arrived; {@code from} is the sender the transport authenticated. */
  record Received(int from, Message message) implements Event {}

  /** One unit of time passed. */
  record Tick() implements Event {}
}
