package io.rubinbft.orderer.consensus;

import java.util.Arrays;
import java.util.OptionalLong;

/**
 * The epochs newer than this node's that the members of its epoch sent frames of, and the newest
 * epoch a correct member is known to run: the one that at least f+1 members (so at least one
 * correct) claim, or a newer one. One Byzantine member lying about its epoch (claiming 2^40, or
 * each time a higher one) therefore starts no catch-up probe; a node that really is behind hears of
 * the newer epoch from the f+1 or more correct members of its epoch that run it (a config update
 * changes one consenter, so at least n-2 members of the old epoch run the new one).
 *
 * <p>Thread-safe: called on the network thread; reset when the host's epoch changes.
 */
final class NewerEpochClaims {

  private long epoch = -1;
  private long[] claims = new long[0];
  private long reported = -1;

  /**
   * Records that member {@code member} of epoch {@code own} (of {@code members}, tolerating {@code
   * f} faults) sent a frame of {@code claimed}, newer than {@code own}.
   *
   * @return the newest epoch newer than {@code own} that at least f+1 members claim, once it is
   *     newer than any returned before in this epoch; empty otherwise
   */
  synchronized OptionalLong claim(long own, int members, int f, int member, long claimed) {
    if (own != epoch || claims.length != members) {
      epoch = own;
      claims = new long[members];
      Arrays.fill(claims, -1);
      reported = -1;
    }
    claims[member] = Math.max(claims[member], claimed);
    long[] sorted = claims.clone();
    Arrays.sort(sorted);
    long backedByACorrectMember = sorted[members - 1 - f];
    if (backedByACorrectMember > own && backedByACorrectMember > reported) {
      reported = backedByACorrectMember;
      return OptionalLong.of(backedByACorrectMember);
    }
    return OptionalLong.empty();
  }
}
