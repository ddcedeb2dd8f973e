package io.rubinbft.orderer.node.lifecycle;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * Where one channel of this node is in its life. The node keeps one state per channel, changed only
 * by {@link Transitions#next} on the lifecycle thread. The steady states are what the participation
 * API, {@code /healthz} and the metrics read; {@link Joining} and {@link Switching} last only while
 * the lifecycle thread starts what the channel needs, and nobody else sees them.
 */
public sealed interface ChannelState {

  /** Not joined: no ledger, no pending join block. */
  record Absent() implements ChannelState {}

  /**
   * Being joined or resumed: its ledger, replica, follower or onboarding is starting.
   *
   * @param onboardingAs the relation it will have once onboarded, when joined (or resumed) with a
   *     config block after the genesis block; null when its ledger is served at once
   * @param resumed whether a node restart resumes it (a failure then leaves its data alone)
   */
  record Joining(@Nullable Relation onboardingAs, boolean resumed) implements ChannelState {}

  /** Pulling the blocks before its join block; {@code relation} is the one it will have. */
  record Onboarding(Relation relation) implements ChannelState {}

  /** Its onboarding stopped for good ({@code reason}); it stays so until it is removed. */
  record OnboardingFailed(Relation relation, String reason) implements ChannelState {}

  /**
   * A replica of it runs (a consenter; as a follower when this node is not a member of the epoch
   * its WAL recovered). Its replica or ledger writer may have failed meanwhile; {@link Restarting}
   * follows the replica's failure.
   */
  record Consenter() implements ChannelState {}

  /** It follows the channel, pulling the blocks the consenters order. */
  record Follower() implements ChannelState {}

  /**
   * Switching between consenter and follower because a config block added or removed this node;
   * {@code to} is the relation it switches to.
   */
  record Switching(Relation to) implements ChannelState {}

  /**
   * A consenter behind a reconfiguration: its replica is stopped while it pulls the blocks up to
   * the newest config block the channel's orderers claim.
   */
  record CatchingUp() implements ChannelState {}

  /**
   * Its replica stopped on an error (a full disk): the failed replica stays listed (the channel
   * shows "failed", its blocks are served) and the channel is served again after {@code pause}.
   */
  record Restarting(Duration pause) implements ChannelState {}

  /**
   * This node stopped serving it for good ({@code reason}): a switch between consenter and
   * follower, or the return from a catch-up, failed. Its ledger is still served; it stays so until
   * removed.
   */
  record Stopped(Relation relation, String reason) implements ChannelState {}
}
