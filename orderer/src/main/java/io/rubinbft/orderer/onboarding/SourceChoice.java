package io.rubinbft.orderer.onboarding;

import java.util.List;
import java.util.OptionalInt;

/**
 * Which source to pull from, given the heights the sources claimed when asked for their newest
 * block (as Fabric's block puller probes every endpoint and pulls from one that has what it needs).
 * A claim is not trusted beyond its use: a source that claimed a height and then did not serve it,
 * or sent a block that failed its checks, is distrusted, and a distrusted source is chosen only
 * when no trusted one is ahead; it earns trust back by serving up to a height it claimed. So a
 * source that claims a huge height costs one try, not one per choice. Pure: the pool keeps the
 * state.
 */
final class SourceChoice {

  /**
   * One source as the choice sees it.
   *
   * @param available not left alone after a failure, and it answered the last height probe
   * @param claimedHeight the height its newest block showed ({@code number + 1})
   * @param trusted it has not broken a claim since it last kept one
   */
  record Candidate(boolean available, long claimedHeight, boolean trusted) {}

  private SourceChoice() {}

  /**
   * The index of the source to ask for blocks from {@code next} on: among the available ones, a
   * trusted source ahead of {@code next}, else a distrusted one ahead; with {@code openEnded} (a
   * follower waiting for new blocks) also one that is not ahead, trusted first. Within those, the
   * highest claim wins; ties go to the first at or after {@code start} in turn, so equal sources
   * share the load. Empty when no source qualifies.
   */
  static OptionalInt pick(List<Candidate> candidates, long next, boolean openEnded, int start) {
    int best = -1;
    int bestTier = Integer.MAX_VALUE;
    long bestHeight = -1;
    int size = candidates.size();
    for (int step = 0; step < size; step++) {
      int index = Math.floorMod(start + step, size);
      Candidate candidate = candidates.get(index);
      boolean ahead = candidate.claimedHeight() > next;
      if (!candidate.available() || (!ahead && !openEnded)) {
        continue;
      }
      int tier = (ahead ? 0 : 2) + (candidate.trusted() ? 0 : 1);
      if (tier < bestTier || (tier == bestTier && candidate.claimedHeight() > bestHeight)) {
        best = index;
        bestTier = tier;
        bestHeight = candidate.claimedHeight();
      }
    }
    return best < 0 ? OptionalInt.empty() : OptionalInt.of(best);
  }
}
