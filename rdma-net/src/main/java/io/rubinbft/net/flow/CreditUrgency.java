package io.rubinbft.net.flow;

/** Whether this side must send an explicit credit frame now, and of which kind. */
public enum CreditUrgency {
  /** Nothing to say, or a data frame will carry it soon enough. */
  NONE,
  /** The peer's data window is running low and this side has freed slots it has not told. */
  CREDIT,
  /** The peer has no slot left even for credit frames: tell it what its frames freed. */
  ACKNOWLEDGEMENT;

  /** The frame kind that carries this urgency. */
  public FrameKind frameKind() {
    return this == ACKNOWLEDGEMENT ? FrameKind.ACKNOWLEDGEMENT : FrameKind.CREDIT;
  }
}
