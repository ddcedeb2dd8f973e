package io.rubinbft.bft.sim;

import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The epochs the correct hosts executed, in order: which member set certifies a sequence. The set
 * in force at sequence k is known once some correct host executed k - 1 (all of them execute the
 * same prefix, which the invariant checker checks).
 */
final class EpochHistory implements InvariantChecker.Rosters {

  private final TreeMap<Long, List<Integer>> starts = new TreeMap<>();
  private long executed;

  EpochHistory(List<Integer> genesisMembers) {
    starts.put(0L, List.copyOf(genesisMembers));
  }

  /** A correct host executed {@code sequence}; {@code next} is the member set it starts, if any. */
  void executed(long sequence, Optional<List<Integer>> next) {
    next.ifPresent(members -> starts.put(sequence, List.copyOf(members)));
    executed = Math.max(executed, sequence);
  }

  @Override
  public Optional<List<Integer>> at(long sequence) {
    if (sequence < 1 || sequence - 1 > executed) {
      return Optional.empty();
    }
    return Optional.of(starts.floorEntry(sequence - 1).getValue());
  }

  /** The member set of the newest epoch any correct host started. */
  List<Integer> newest() {
    return starts.lastEntry().getValue();
  }

  long newestNumber() {
    return starts.lastKey();
  }
}
