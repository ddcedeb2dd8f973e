package io.rubinbft.net.flow;

/**
 * Credit flow control of one connection, both directions: the rules for when a frame may go out and
 * when an explicit credit frame must. Data frames piggyback this side's position; explicit frames
 * go out only when the window would otherwise starve:
 *
 * <ul>
 *   <li>CREDIT: the application freed data slots and the peer is down to half its window;
 *   <li>BLOCKED: this side has data and no credit, and has not said so since the peer released its
 *       last such announcement;
 *   <li>ACKNOWLEDGEMENT: the peer said it is blocked and this side's news would unblock it.
 * </ul>
 *
 * Receiving a credit frame never prompts another by itself, so two sides never answer each other
 * forever; and a blocked side can always say so, so they never wait for each other either.
 */
public final class FlowControl {

  private final SendWindow sendWindow = new SendWindow(1);
  private final ReceiveWindow receiveWindow;
  private boolean blocked;
  private boolean blockedAnnounced;
  private boolean peerBlocked;
  private long peerSlots;
  private long announcedAt;

  public FlowControl(int receiveSlots) {
    this.receiveWindow = new ReceiveWindow(receiveSlots);
  }

  public boolean canSend(FrameKind kind) {
    return sendWindow.canSend(kind);
  }

  /** The application found no data credit: remember it, to tell the peer. */
  public void onBackPressured() {
    if (!sendWindow.canSend(FrameKind.DATA)) {
      blocked = true;
    }
  }

  /** The position a frame sent now advertises. */
  public long available() {
    return receiveWindow.available();
  }

  /**
   * Records a frame sent, which carried {@link #available()}; {@code announcesBlocked} when it is
   * the BLOCKED announcement (the frame's BLOCKED flag).
   */
  public void onSent(FrameKind kind, boolean announcesBlocked) {
    sendWindow.onSent(kind);
    if (receiveWindow.newsGrantsData()) {
      peerBlocked = false;
    }
    receiveWindow.onAdvertised();
    if (announcesBlocked) {
      blockedAnnounced = true;
      announcedAt = sendWindow.sent();
    }
  }

  /**
   * The peer's HELLO arrived (the first frame, released at once), declaring {@code peerSlots}
   * receive slots: the peer's initial position.
   */
  public void onHandshake(int peerSlots) {
    if (this.peerSlots != 0) {
      throw new IllegalStateException("a second handshake on one connection");
    }
    this.peerSlots = peerSlots;
    receiveWindow.onReceived();
    receiveWindow.onReleased(false);
    sendWindow.onAdvertised(peerSlots);
  }

  /**
   * A valid frame arrived carrying the peer's position and BLOCKED flag.
   *
   * @return false (and nothing recorded) when the peer overran the window it was given
   */
  public boolean onArrived(long peerAvailable, boolean peerAnnouncesBlocked) {
    if (!receiveWindow.hasRoomForOneMore()) {
      return false;
    }
    receiveWindow.onReceived();
    sendWindow.onAdvertised(peerAvailable);
    if (peerAnnouncesBlocked) {
      peerBlocked = true;
    }
    if (sendWindow.canSend(FrameKind.DATA)) {
      blocked = false;
      blockedAnnounced = false;
    } else if (sendWindow.peerAvailable() - peerSlots >= announcedAt) {
      // The peer has released the announcement and this side is still blocked: say so again.
      // Waiting for that (not just for any news) keeps one announcement in flight at a time.
      blockedAnnounced = false;
    }
    return true;
  }

  /** A received frame's slot is posted again. */
  public void onReleased(boolean data) {
    receiveWindow.onReleased(data);
  }

  /** Which explicit credit frame must go out now, if any. */
  public CreditUrgency urgency() {
    if (receiveWindow.hasNews()) {
      if (peerBlocked && receiveWindow.newsGrantsData()) {
        return CreditUrgency.ACKNOWLEDGEMENT;
      }
      if (receiveWindow.peerRunningLow()) {
        return CreditUrgency.CREDIT;
      }
    }
    return blocked && !blockedAnnounced ? CreditUrgency.BLOCKED : CreditUrgency.NONE;
  }

  public SendWindow sendWindow() {
    return sendWindow;
  }

  public ReceiveWindow receiveWindow() {
    return receiveWindow;
  }

  @Override
  public String toString() {
    return sendWindow
        + "; "
        + receiveWindow
        + (blocked ? "; blocked" : "")
        + (blockedAnnounced ? " (announced)" : "")
        + (peerBlocked ? "; peer blocked" : "");
  }
}
