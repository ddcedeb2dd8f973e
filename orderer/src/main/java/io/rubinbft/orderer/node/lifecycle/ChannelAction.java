package io.rubinbft.orderer.node.lifecycle;

import io.rubinbft.orderer.participation.ParticipationException.Reason;
import java.time.Duration;

/**
 * What the lifecycle thread does for a transition, in order. The actions that start something
 * ({@link Serve}, {@link StartFollower}, ...) answer {@link ChannelEvent.Started} or {@link
 * ChannelEvent.StartFailed}, which the lifecycle thread feeds back at once.
 */
public sealed interface ChannelAction {

  /** Answers the request with this error; nothing else changes. */
  record Refuse(Reason reason, String message) implements ChannelAction {}

  /** Creates the channel's ledger holding the join block (block 0) and serves it. */
  record CreateLedgerAndServe() implements ChannelAction {}

  /** Keeps the join block as the pending join and starts onboarding with it. */
  record SaveJoinBlockAndOnboard() implements ChannelAction {}

  /** Starts onboarding with the pending join block a restart found. */
  record ResumeOnboarding() implements ChannelAction {}

  /**
   * Serves the channel's ledger under its newest config: a replica when this node is one of its
   * consenters, else a follower.
   */
  record Serve() implements ChannelAction {}

  /** Starts a follower of the channel's ledger. */
  record StartFollower() implements ChannelAction {}

  /** Starts the replica of the channel's ledger. */
  record StartReplica() implements ChannelAction {}

  /** Closes what runs for the channel now (replica, follower, onboarding or catch-up). */
  record Close() implements ChannelAction {}

  /** Deletes what the channel left: its ledger, its WAL folder and its pending join block. */
  record Discard() implements ChannelAction {}

  /**
   * After {@code grace}, asks the channel's orderers whether one holds a config block the ledger
   * lacks; answers {@link ChannelEvent.NewerConfigClaimed} if so.
   */
  record AskForNewerConfig(String why, Duration grace) implements ChannelAction {}

  /**
   * Pulls the blocks up to the newest config block the orderers claim, off the lifecycle thread;
   * answers {@link ChannelEvent.CaughtUp} when done or failed.
   */
  record StartCatchUp(String why) implements ChannelAction {}

  /** Answers {@link ChannelEvent.RestartDue} after {@code pause}. */
  record RestartAfter(Duration pause) implements ChannelAction {}

  /** Keeps serving the channel's ledger as it is (Deliver only) under the stopped state. */
  record KeepLedgerReadable() implements ChannelAction {}

  /** Passes the config update on to the channel's replica. */
  record OrderUpdate() implements ChannelAction {}
}
