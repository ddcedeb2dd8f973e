package io.rubinbft.orderer.deliver;

import java.util.Optional;
import org.hyperledger.fabric.protos.orderer.SeekInfo;
import org.hyperledger.fabric.protos.orderer.SeekPosition;

/**
 * The blocks a Deliver request asks for, resolved against the ledger height when the request
 * arrives, exactly as Fabric's deliver handler resolves them. Block numbers are unsigned 64-bit, as
 * in Fabric: peers stream "forever" with {@code stop = Specified(MaxUint64)}, which Java sees as
 * -1.
 *
 * @param start the first block to send
 * @param stop the last block to send (unsigned)
 * @param failIfNotReady answer NOT_FOUND instead of waiting when a block does not exist yet
 */
public record SeekRange(long start, long stop, boolean failIfNotReady) {

  /** Whether {@code number} is the last block of the range. */
  public boolean endsAt(long number) {
    return number == stop;
  }

  /**
   * Resolves {@code seek} at ledger {@code height} (at least 1: a joined channel has its genesis
   * block). Empty when the request is malformed (missing positions, start after stop), which Fabric
   * answers with BAD_REQUEST.
   */
  public static Optional<SeekRange> resolve(SeekInfo seek, long height) {
    if (!seek.hasStart() || !seek.hasStop() || positionMissing(seek.getStart())) {
      return Optional.empty();
    }
    long start = startOf(seek.getStart(), height);
    long stop;
    switch (seek.getStop().getTypeCase()) {
      case OLDEST -> stop = start;
      case NEWEST ->
          // Start and stop both Newest: exactly one block, even if another lands meanwhile.
          stop = seek.getStart().equals(seek.getStop()) ? start : height - 1;
      case SPECIFIED -> {
        stop = seek.getStop().getSpecified().getNumber();
        if (Long.compareUnsigned(stop, start) < 0) {
          return Optional.empty();
        }
      }
      // NextCommit as a stop: Fabric leaves the stop unset and streams on; so do we.
      default -> stop = -1L;
    }
    boolean failIfNotReady = seek.getBehavior() == SeekInfo.SeekBehavior.FAIL_IF_NOT_READY;
    return Optional.of(new SeekRange(start, stop, failIfNotReady));
  }

  private static boolean positionMissing(SeekPosition position) {
    return position.getTypeCase() == SeekPosition.TypeCase.TYPE_NOT_SET;
  }

  private static long startOf(SeekPosition position, long height) {
    return switch (position.getTypeCase()) {
      case OLDEST -> 0;
      case NEWEST -> height - 1;
      case SPECIFIED -> position.getSpecified().getNumber();
      default -> height;
    };
  }
}
