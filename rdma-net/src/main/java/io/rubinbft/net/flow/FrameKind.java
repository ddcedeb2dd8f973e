package io.rubinbft.net.flow;

/**
 * Why a frame is sent, which decides how much of the peer's window it may use. Data leaves {@link
 * SendWindow#CONTROL_RESERVE} slots free so credit can always flow back; credit frames and
 * acknowledgements leave the last slot free; only a signal (the HELLO, a CLOSE, or the one-time
 * announcement that this side is blocked) takes the last slot. A side that has taken the last slot
 * has announced it is blocked, and the peer answers that with an acknowledgement as soon as it has
 * freed anything: no state exists where both sides wait for the other.
 */
public enum FrameKind {
  DATA(SendWindow.CONTROL_RESERVE),
  CREDIT(1),
  ACKNOWLEDGEMENT(1),
  SIGNAL(0);

  private final int slotsLeftFree;

  FrameKind(int slotsLeftFree) {
    this.slotsLeftFree = slotsLeftFree;
  }

  int slotsLeftFree() {
    return slotsLeftFree;
  }
}
