package io.rubinbft.net.flow;

/**
 * The sender's side of credit flow control, as monotonic positions (Aeron style). {@code sent}
 * counts every frame this side has sent; {@code peerAvailable} is the highest number of receive
 * slots the peer has ever said it made available (its initial slots plus every slot it has
 * reposted). A frame may go out only while {@code sent < peerAvailable}, so a send never finds its
 * receive slot unposted. Advertisements are idempotent and may arrive in any order: the highest
 * wins, and a lost one is superseded by the next.
 */
public final class SendWindow {

  /** Slots data frames leave free for control frames (see {@link FrameKind}). */
  public static final int CONTROL_RESERVE = 3;

  private long sent;
  private long peerAvailable;

  /**
   * @param initialPeerAvailable slots the peer is assumed to have posted before it has said so
   *     (one: the HELLO is the first thing sent, and every peer posts its receives before it
   *     connects)
   */
  public SendWindow(long initialPeerAvailable) {
    this.peerAvailable = initialPeerAvailable;
  }

  /** Whether a frame of this kind may be sent now. */
  public boolean canSend(FrameKind kind) {
    return sent < peerAvailable - kind.slotsLeftFree();
  }

  /** How many data frames may be sent now. */
  public long dataCredit() {
    return Math.max(0, peerAvailable - FrameKind.DATA.slotsLeftFree() - sent);
  }

  /** Records a frame sent; the caller has checked {@link #canSend}. */
  public void onSent(FrameKind kind) {
    if (!canSend(kind)) {
      throw new IllegalStateException(
          "sending a "
              + kind
              + " frame at position "
              + sent
              + " beyond the peer's available "
              + peerAvailable);
    }
    sent++;
  }

  /** Takes the peer's advertised position; older or equal values change nothing. */
  public void onAdvertised(long available) {
    peerAvailable = Math.max(peerAvailable, available);
  }

  public long sent() {
    return sent;
  }

  public long peerAvailable() {
    return peerAvailable;
  }

  @Override
  public String toString() {
    return "sent " + sent + " of peer's available " + peerAvailable;
  }
}
