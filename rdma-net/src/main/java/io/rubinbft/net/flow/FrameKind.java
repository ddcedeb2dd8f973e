package io.rubinbft.net.flow;

/**
 * Why a frame is sent, which decides how much of the peer's window it may use. Data leaves {@link
 * SendWindow#CONTROL_RESERVE} slots free so credit can always flow back; a credit frame leaves the
 * last slot free; only an acknowledgement, sent when the peer has no slot left for its own credit
 * frames, takes the last one. That ordering is what rules out a deadlock of two full windows.
 */
public enum FrameKind {
  DATA(SendWindow.CONTROL_RESERVE),
  CREDIT(1),
  ACKNOWLEDGEMENT(0);

  private final int slotsLeftFree;

  FrameKind(int slotsLeftFree) {
    this.slotsLeftFree = slotsLeftFree;
  }

  int slotsLeftFree() {
    return slotsLeftFree;
  }
}
