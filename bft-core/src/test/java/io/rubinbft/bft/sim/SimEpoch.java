package io.rubinbft.bft.sim;

import io.rubinbft.bft.Decision;
import java.util.List;

/**
 * The epoch a simulated host orders in (or follows): its number (the anchor's sequence, 0 for
 * genesis), its anchor (null for genesis) and its members, ascending node ids; replica index i is
 * node {@code members.get(i)}.
 */
record SimEpoch(long number, Decision anchor, List<Integer> members) {

  SimEpoch {
    members = List.copyOf(members);
  }

  static SimEpoch genesis(List<Integer> members) {
    return new SimEpoch(0, null, members);
  }

  /** The epoch {@code anchor} starts, with the member set it names. */
  static SimEpoch after(Decision anchor, List<Integer> members) {
    return new SimEpoch(anchor.sequence(), anchor, members);
  }

  boolean hasMember(int node) {
    return members.contains(node);
  }

  /** Replica index of {@code node}, or -1 if it is not a member. */
  int indexOf(int node) {
    return members.indexOf(node);
  }
}
