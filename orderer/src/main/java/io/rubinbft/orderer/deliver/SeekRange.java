package io.rubinbft.orderer.deliver;

import org.hyperledger.fabric.protos.common.Status;
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
   * block), in the order of Fabric's deliverBlocks over its file ledger's iterator:
   *
   * <ul>
   *   <li>a missing start or stop: BAD_REQUEST;
   *   <li>a start position of no known type, or a Specified start beyond the height: NOT_FOUND at
   *       once, whatever the behavior (the file ledger's iterator finds nothing; a start equal to
   *       the height is the next block, which BLOCK_UNTIL_READY waits for);
   *   <li>a Specified stop before the start: BAD_REQUEST;
   *   <li>a NextCommit stop, or one of no known type: Fabric leaves its stop number at zero, so the
   *       range ends after block 0 if it sends block 0 and never ends otherwise.
   * </ul>
   */
  public static SeekResolution resolve(SeekInfo seek, long height) {
    if (!seek.hasStart() || !seek.hasStop()) {
      return new SeekResolution.Refused(Status.BAD_REQUEST);
    }
    SeekPosition first = seek.getStart();
    if (first.getTypeCase() == SeekPosition.TypeCase.TYPE_NOT_SET
        || (first.hasSpecified()
            && Long.compareUnsigned(first.getSpecified().getNumber(), height) > 0)) {
      return new SeekResolution.Refused(Status.NOT_FOUND);
    }
    long start = startOf(first, height);
    long stop;
    switch (seek.getStop().getTypeCase()) {
      case OLDEST -> stop = start;
      case NEWEST ->
          // Start and stop both Newest: exactly one block, even if another lands meanwhile.
          stop = first.equals(seek.getStop()) ? start : height - 1;
      case SPECIFIED -> {
        stop = seek.getStop().getSpecified().getNumber();
        if (Long.compareUnsigned(stop, start) < 0) {
          return new SeekResolution.Refused(Status.BAD_REQUEST);
        }
      }
      default -> stop = 0;
    }
    boolean failIfNotReady = seek.getBehavior() == SeekInfo.SeekBehavior.FAIL_IF_NOT_READY;
    return new SeekResolution.Blocks(new SeekRange(start, stop, failIfNotReady));
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
