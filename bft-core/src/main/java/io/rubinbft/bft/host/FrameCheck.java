package io.rubinbft.bft.host;

import java.util.OptionalInt;

/**
 * What a host does with a peer's frame (a message tagged with its sender's epoch): only the current
 * epoch's frames from its members reach the replica. An older epoch's frame means the sender has
 * not executed the block that ended it (or was removed by it); a newer epoch's, from a member of
 * this epoch, means this node may be behind a switch: the catch-up trigger. Membership is checked
 * before a newer epoch is looked at, so a stranger's claim of a newer epoch triggers nothing.
 */
public enum FrameCheck {
  /** Of this epoch, from one of its members: step the replica with it. */
  DELIVER,
  /** Of an older epoch: dropped (the sender may be told of this one). */
  OLDER_EPOCH,
  /**
   * Of a newer epoch, from a member of this one: dropped; this node may have missed a switch (the
   * host decides how many members must claim it).
   */
  NEWER_EPOCH,
  /** From no member of this epoch, or this node orders no more: dropped. */
  NOT_A_MEMBER;

  /**
   * @param epoch the epoch this node runs
   * @param member whether this node is a member of it (runs its replica)
   * @param frameEpoch the epoch the frame names
   * @param sender the sender's replica index in {@code epoch}, empty when it is none of its members
   */
  public static FrameCheck of(long epoch, boolean member, long frameEpoch, OptionalInt sender) {
    if (frameEpoch < epoch) {
      return OLDER_EPOCH;
    }
    if (sender.isEmpty()) {
      return NOT_A_MEMBER;
    }
    if (frameEpoch > epoch) {
      return NEWER_EPOCH;
    }
    return member ? DELIVER : NOT_A_MEMBER;
  }
}
