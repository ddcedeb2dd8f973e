package io.rubinbft.net.flow;

/**
 * The receiver's side of credit flow control. It counts valid frames received and released (control
 * frames are released on arrival, data frames when the application has consumed them and their slot
 * is posted again) and the position last advertised to the peer. It never lets more frames be held
 * than there are slots: a frame past the window is the peer's fault and is refused.
 */
public final class ReceiveWindow {

  private final int slots;
  private final long lowWater;
  private long received;
  private long released;
  private long releasedData;
  private long advertised;
  private long advertisedData;

  /**
   * @param slots receive slots posted for the peer (at least {@link SendWindow#CONTROL_RESERVE} +
   *     2)
   */
  public ReceiveWindow(int slots) {
    if (slots < minimumSlots()) {
      throw new IllegalArgumentException(
          "receive slots are " + slots + " but must be at least " + minimumSlots());
    }
    this.slots = slots;
    this.lowWater = (slots - SendWindow.CONTROL_RESERVE) / 2L;
    this.advertised = slots;
  }

  /** The fewest receive slots that leave room for data beside the control reserve. */
  public static int minimumSlots() {
    return SendWindow.CONTROL_RESERVE + 2;
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

  /** A received frame's slot is posted again; {@code data} says whether it held data. */
  public void onReleased(boolean data) {
    if (released >= received) {
      throw new IllegalStateException("released " + released + " of " + received + " frames");
    }
    released++;
    if (data) {
      releasedData++;
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
  }

  /** Whether slots were freed that the peer has not been told of. */
  public boolean hasNews() {
    return available() > advertised;
  }

  /** Whether the news includes data slots and the peer is down to its last half window. */
  public boolean peerRunningLow() {
    return releasedData > advertisedData && dataLeftToPeer(advertised) <= lowWater;
  }

  /** Whether advertising now would let the peer send data it cannot send on what it was told. */
  public boolean newsGrantsData() {
    return dataLeftToPeer(available()) > Math.max(0, dataLeftToPeer(advertised));
  }

  private long dataLeftToPeer(long availableTold) {
    return availableTold - SendWindow.CONTROL_RESERVE - received;
  }

  public long received() {
    return received;
  }

  @Override
  public String toString() {
    return "received "
        + received
        + ", released "
        + released
        + " (data "
        + releasedData
        + "), available "
        + available()
        + ", advertised "
        + advertised;
  }
}
