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
 * <p>A member that sends a frame of this node's epoch withdraws its claim ({@link #withdraw}): a
 * member's keys held by a liar for a while and then by its honest process again no longer back the
 * lie, so liars in successive rounds, each a different member, never add up to f+1. This cannot
 * keep f+1 correct claims from lining up: a correct member stops its epoch's replica as it executes
 * the block that ends the epoch, so after its first frame of the newer epoch it sends frames of the
 * older one only where they were under way already (frames queued before the switch leave first on
 * the link; a state-transfer answer read before it), and its next frame of the newer epoch claims
 * it again (one at least every second while this node sends it frames of the older epoch: the
 * notice of the newer epoch). A Byzantine member alternating frames of both epochs withdraws only
 * its own claim.
 *
 * <p>Thread-safe: called on the network thread; reset when the host's epoch changes. While nothing
 * is claimed, a withdrawal costs one volatile read.
 */
final class NewerEpochClaims {

  private long epoch = -1;
  private long[] claims = new long[0];
  private long reported = -1;
  // Whether some member's claim is recorded: the only read of a withdrawal when none is.
  private volatile boolean anyClaim;

  /**
   * Records that member {@code member} of epoch {@code own} (of {@code members}, tolerating {@code
   * f} faults) sent a frame of {@code claimed}, newer than {@code own}.
   *
   * @return the newest epoch newer than {@code own} that at least f+1 members claim, once it is
   *     newer than any returned before in this epoch; empty otherwise
   */
  synchronized OptionalLong claim(long own, int members, int f, int member, long claimed) {
    if (own != epoch || claims.length != members) {
      reset(own, members);
    }
    claims[member] = Math.max(claims[member], claimed);
    anyClaim = true;
    long[] sorted = claims.clone();
    Arrays.sort(sorted);
    long backedByACorrectMember = sorted[members - 1 - f];
    if (backedByACorrectMember > own && backedByACorrectMember > reported) {
      reported = backedByACorrectMember;
      return OptionalLong.of(backedByACorrectMember);
    }
    return OptionalLong.empty();
  }

  /**
   * Forgets the claim of member {@code member} of epoch {@code own}, which sent a frame of {@code
   * own}: it runs this node's epoch now (or, if Byzantine, withdraws only its own claim).
   */
  void withdraw(long own, int member) {
    if (anyClaim) {
      withdrawClaim(own, member);
    }
  }

  private synchronized void withdrawClaim(long own, int member) {
    if (own > epoch) {
      // The claims are of an epoch this node left: none of them is newer than its own any more.
      reset(own, claims.length);
    } else if (own == epoch && member < claims.length) {
      claims[member] = -1;
      anyClaim = Arrays.stream(claims).anyMatch(c -> c >= 0);
    }
  }

  private void reset(long own, int members) {
    epoch = own;
    claims = new long[members];
    Arrays.fill(claims, -1);
    reported = -1;
    anyClaim = false;
  }
}
