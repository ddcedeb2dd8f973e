package io.rubinbft.orderer.consensus;

import io.rubinbft.bft.Refusal;

/** What became of a client envelope offered to a channel's {@link ReplicaHost}. */
public sealed interface Admission {

  /** In the replica's pool now, or a copy of it was already. */
  record Admitted() implements Admission {}

  /** Refused by the replica ({@link Refusal}) or by the node's byte budget of all pools. */
  record Refused(Refusal refusal) implements Admission {}

  /**
   * The host takes no requests now: this node follows the channel, the replica stopped, or the
   * client requests already waiting for it hold their byte budget.
   *
   * @param reason why, for the client
   */
  record Unavailable(String reason) implements Admission {}
}
