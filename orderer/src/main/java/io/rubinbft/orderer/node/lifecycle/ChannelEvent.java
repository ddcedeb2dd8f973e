package io.rubinbft.orderer.node.lifecycle;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * What happens to a channel: a request of the participation API, a node restart, news from the
 * channel's replica, follower, onboarding or catch-up, a timer, or the outcome of starting what a
 * state needs. {@link Transitions#next} says what each one does in each state.
 */
public sealed interface ChannelEvent {

  /**
   * The participation API joins the channel.
   *
   * @param genesis whether the join block is block 0 (served at once) rather than a later config
   *     block (onboarded first)
   * @param relation this node's relation in the join block's config
   * @param leftOnDisk whether the node's disk still holds a ledger or a pending join block of the
   *     channel (the channel exists though it is not joined)
   * @param overHeap why the node's heap cannot hold the channel beside those it holds now (their
   *     windows, queues and pools at their worst), or null when it can: found on the lifecycle
   *     thread, so that joins are weighed one after another against every channel joined before
   */
  record Join(boolean genesis, Relation relation, boolean leftOnDisk, @Nullable String overHeap)
      implements ChannelEvent {

    /** A join the heap has room for. */
    public Join(boolean genesis, Relation relation, boolean leftOnDisk) {
      this(genesis, relation, leftOnDisk, null);
    }
  }

  /** A node restart resumes the channel whose ledger the block store holds. */
  record Resume() implements ChannelEvent {}

  /** A node restart resumes onboarding the channel, as {@code relation}. */
  record ResumeOnboarding(Relation relation) implements ChannelEvent {}

  /** The participation API removes the channel. */
  record Remove() implements ChannelEvent {}

  /** The participation API orders a config update on channel {@code channel}. */
  record Update(String channel) implements ChannelEvent {}

  /** What a state needed started: the channel is served (or onboarded) as {@code relation}. */
  record Started(Relation relation) implements ChannelEvent {}

  /**
   * What a state needed could not start.
   *
   * @param reason why, in the words of the exception
   * @param badConfig whether the channel's config is the cause (a join answers 400, else 500)
   */
  record StartFailed(String reason, boolean badConfig) implements ChannelEvent {}

  /** The onboarding's ledger reached the join block. */
  record Onboarded() implements ChannelEvent {}

  /** The onboarding stopped for a reason pulling cannot cure. */
  record OnboardingStopped(String reason) implements ChannelEvent {}

  /** An epoch started without this node: the consenter must follow the channel. */
  record LeftConsenters() implements ChannelEvent {}

  /** The follower appended a config block that lists this node as a consenter. */
  record BecameConsenter() implements ChannelEvent {}

  /**
   * The consenter may be behind a reconfiguration ({@code why}); unless it is not after {@code
   * grace}, it asks the channel's orderers for their newest config block.
   */
  record MaybeBehind(String why, Duration grace) implements ChannelEvent {}

  /**
   * An orderer of the channel claims a config block the ledger lacks ({@code why} the consenter
   * asked); {@code stillBehind}: the replica neither reached a newer epoch nor installed a view
   * meanwhile.
   */
  record NewerConfigClaimed(String why, boolean stillBehind) implements ChannelEvent {}

  /** The catch-up ended: pulled up to the newest config block claimed, or failed. */
  record CaughtUp() implements ChannelEvent {}

  /** The consenter's replica stopped on an error. */
  record ReplicaStopped() implements ChannelEvent {}

  /** The pause before serving a channel whose replica stopped is over. */
  record RestartDue() implements ChannelEvent {}
}
