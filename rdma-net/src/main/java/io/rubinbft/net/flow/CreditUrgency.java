package io.rubinbft.net.flow;

/** Whether this side must send an explicit credit frame now, and why. */
public enum CreditUrgency {
  /** Nothing to say, or a data frame will carry it soon enough. */
  NONE(FrameKind.CREDIT),
  /** The peer's data window is running low and this side has freed data slots it has not told. */
  CREDIT(FrameKind.CREDIT),
  /** The peer said it is blocked, and telling it what this side freed would unblock it. */
  ACKNOWLEDGEMENT(FrameKind.ACKNOWLEDGEMENT),
  /** This side is blocked and has not said so since it last had credit. */
  BLOCKED(FrameKind.SIGNAL);

  private final FrameKind frameKind;

  CreditUrgency(FrameKind frameKind) {
    this.frameKind = frameKind;
  }

  /** The budget the frame carrying this urgency spends. */
  public FrameKind frameKind() {
    return frameKind;
  }
}
