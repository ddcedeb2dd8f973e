package io.rubinbft.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.agrona.DirectBuffer;

/**
 * A sender floods a receiver that stalls and resumes, over and over. While the receiver stalls the
 * sender must be back-pressured, the receiver must hold no more frames than its slots and the
 * sender must never run past the credit it was given; when the receiver resumes, every message
 * arrives exactly once, in order, intact. Sizes mix small and fragmented messages.
 */
final class BackPressureScenario implements MessageHandler {

  private static final long STREAM = 42;

  private final Pump pump;
  private final Channel sender;
  private final Channel receiver;
  private final int receiveSlots;
  private final long seed;
  private int nextToSend;
  private int nextExpected;
  private long stallsWithoutBackPressure;

  BackPressureScenario(Pump pump, Channel sender, Channel receiver, int receiveSlots, long seed) {
    this.pump = pump;
    this.sender = sender;
    this.receiver = receiver;
    this.receiveSlots = receiveSlots;
    this.seed = seed;
  }

  /** One stall of {@code stalledTurns} selector turns, then a full drain. */
  void cycle(int stalledTurns) {
    boolean backPressured = false;
    for (int turn = 0; turn < stalledTurns; turn++) {
      backPressured |= floodOnce();
      pump.turn();
      checkBounds();
    }
    drain(backPressured);
  }

  /** One stall until {@code nanoTime} reaches {@code stallEnd}, then a full drain. */
  void stallUntil(long stallEnd) {
    boolean backPressured = false;
    while (System.nanoTime() < stallEnd) {
      backPressured |= floodOnce();
      pump.turn();
      checkBounds();
    }
    drain(backPressured);
  }

  private void drain(boolean backPressured) {
    if (!backPressured) {
      stallsWithoutBackPressure++;
    }
    pump.until(
        "receiver drains",
        () -> {
          receiver.poll(this, Integer.MAX_VALUE);
          return nextExpected == nextToSend;
        });
  }

  private void checkBounds() {
    ChannelStats atReceiver = receiver.stats();
    long released = atReceiver.advertisedAvailable() - receiveSlots;
    assertThat(atReceiver.receivedPosition() - released).isLessThanOrEqualTo(receiveSlots);
    ChannelStats atSender = sender.stats();
    assertThat(atSender.sendPosition()).isLessThanOrEqualTo(atSender.peerAvailable());
  }

  /** Offers until back-pressured (or a bounded number of times); returns whether it was. */
  private boolean floodOnce() {
    for (int i = 0; i < 1000; i++) {
      int size = size(nextToSend);
      SendResult result = sender.offer(Messages.message(STREAM, nextToSend, size), 0, size);
      if (result == SendResult.BACK_PRESSURED) {
        return true;
      }
      assertThat(result).isEqualTo(SendResult.SENT);
      nextToSend++;
    }
    return false;
  }

  private int size(int index) {
    SplittableRandom forIndex = new SplittableRandom(seed * 1_000_003L + index);
    return forIndex.nextInt(10) == 0
        ? 20_000 + forIndex.nextInt(60_000)
        : 1 + forIndex.nextInt(4000);
  }

  @Override
  public void onMessage(DirectBuffer buffer, int offset, int length) {
    assertThat(Messages.index(buffer, offset, length)).isEqualTo(nextExpected);
    assertThat(Messages.matches(STREAM, nextExpected, buffer, offset, length)).isTrue();
    nextExpected++;
  }

  long stallsWithoutBackPressure() {
    return stallsWithoutBackPressure;
  }

  int delivered() {
    return nextExpected;
  }
}
