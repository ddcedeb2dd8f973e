package io.rubinbft.net.flow;

/**
 * The receiver's side of credit flow control. It counts valid frames received and released (control
 * frames are released on arrival, data frames when the application has consumed them and their slot
 * is posted again) and the position last advertised to the peer. It never lets more frames be held
 * than there are slots: a frame past the window is the peer's fault and is refused.
 *
 * <p>Explicit credit frames are rare by design: only freed data slots can prompt one, and only when
 * the peer is down to its last half window as this side last advertised it. Receiving credit frames
 * never prompts another credit frame; it may prompt an acknowledgement when the peer has spent
 * every slot it may use for credit, and an acknowledgement never prompts anything, which keeps two
 * sides from answering each other forever.
 */
public final class ReceiveWindow {

  private final int slots;
  private final long lowWater;
  private long received;
  private long released;
  private long releasedData;
  private long releasedPrompting;
  private long advertised;
  private long advertisedData;
  private long advertisedPrompting;

  /**
   * @param slots receive slots posted for the peer (at least {@link SendWindow#CONTROL_RESERVE} +
   *     2)
   */
  public ReceiveWindow(int slots) {
    if (slots < SendWindow.CONTROL_RESERVE + 2) {
      throw new IllegalArgumentException(
          "receive slots are "
              + slots
              + " but must be at least "
              + (SendWindow.CONTROL_RESERVE + 2));
    }
    this.slots = slots;
    this.lowWater = (slots - SendWindow.CONTROL_RESERVE) / 2;
    this.advertised = slots;
  }

  /** Whether one more frame fits in the window; false means the peer overran its credit. */
  public boolean hasRoomForOneMore() {
    return received - released < slots;
  }

  /** A valid frame arrived (the caller checked {@link #hasRoomForOneMore}). */
  public void onReceived() {
    if (!hasRoomForOneMore()) {
      throw new IllegalStateException(
          "frame " + received + " received with " + slots + " slots all held");
    }
    received++;
  }

  /** A received frame's slot is posted again; {@code kind} is what the frame was. */
  public void onReleased(FrameKind kind) {
    if (released >= received) {
      throw new IllegalStateException("released " + released + " of " + received + " frames");
    }
    released++;
    if (kind == FrameKind.DATA) {
      releasedData++;
    }
    if (kind != FrameKind.ACKNOWLEDGEMENT) {
      releasedPrompting++;
    }
  }

  /** The position to advertise now: initial slots plus every slot posted again. */
  public long available() {
    return slots + released;
  }

  /** Records that a frame carrying {@link #available()} has been sent. */
  public void onAdvertised() {
    advertised = available();
    advertisedData = releasedData;
    advertisedPrompting = releasedPrompting;
  }

  /** Whether an explicit credit frame must go out now. */
  public CreditUrgency urgency() {
    if (available() == advertised) {
      return CreditUrgency.NONE;
    }
    boolean peerOutOfCreditSlots = advertised - received <= FrameKind.CREDIT.slotsLeftFree();
    if (peerOutOfCreditSlots && releasedPrompting > advertisedPrompting) {
      return CreditUrgency.ACKNOWLEDGEMENT;
    }
    boolean peerDataLow = advertised - SendWindow.CONTROL_RESERVE - received <= lowWater;
    return peerDataLow && releasedData > advertisedData ? CreditUrgency.CREDIT : CreditUrgency.NONE;
  }

  public int slots() {
    return slots;
  }

  /** Frames received and not yet released. */
  public long held() {
    return received - released;
  }

  public long received() {
    return received;
  }
}
