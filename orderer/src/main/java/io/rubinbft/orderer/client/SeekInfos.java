package io.rubinbft.orderer.client;

import org.hyperledger.fabric.protos.orderer.SeekInfo;
import org.hyperledger.fabric.protos.orderer.SeekNewest;
import org.hyperledger.fabric.protos.orderer.SeekPosition;
import org.hyperledger.fabric.protos.orderer.SeekSpecified;

/** The Deliver requests the orderer's clients make. Block numbers are unsigned, as in Fabric. */
public final class SeekInfos {

  /** Fabric's "no end": the largest unsigned 64-bit number. */
  private static final long NO_END = -1L;

  private SeekInfos() {}

  /** Blocks {@code first..last}, answered NOT_FOUND at once when they are not all there yet. */
  public static SeekInfo range(long first, long last) {
    return SeekInfo.newBuilder()
        .setStart(position(first))
        .setStop(position(last))
        .setBehavior(SeekInfo.SeekBehavior.FAIL_IF_NOT_READY)
        .build();
  }

  /**
   * Every block from {@code first} on, waiting for blocks not yet written: a stream with no end.
   */
  public static SeekInfo from(long first) {
    return SeekInfo.newBuilder()
        .setStart(position(first))
        .setStop(position(NO_END))
        .setBehavior(SeekInfo.SeekBehavior.BLOCK_UNTIL_READY)
        .build();
  }

  /** The newest block alone. */
  public static SeekInfo newest() {
    SeekPosition newest =
        SeekPosition.newBuilder().setNewest(SeekNewest.getDefaultInstance()).build();
    return SeekInfo.newBuilder()
        .setStart(newest)
        .setStop(newest)
        .setBehavior(SeekInfo.SeekBehavior.FAIL_IF_NOT_READY)
        .build();
  }

  private static SeekPosition position(long number) {
    return SeekPosition.newBuilder()
        .setSpecified(SeekSpecified.newBuilder().setNumber(number))
        .build();
  }
}
