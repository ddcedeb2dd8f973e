package io.rubinbft.orderer.participation;

/** A participation request that cannot be carried out; nothing was changed. */
public final class ParticipationException extends Exception {

  /** Why, as the HTTP answer will say it. */
  public enum Reason {
    /** The request or its config block is wrong: 400. */
    BAD_REQUEST(400),
    /** No such channel: 404. */
    NOT_FOUND(404),
    /** Joining a channel that exists: 405, as Fabric answers. */
    ALREADY_EXISTS(405),
    /** Updating a channel this node does not serve: 405, as Fabric answers. */
    NOT_A_CHANNEL(405),
    /** Updating a channel this node follows (or onboards): 403, as Fabric answers. */
    FOLLOWER(403),
    /** The channel is being removed: 409. */
    PENDING_REMOVAL(409),
    /** This node could not do it (disk, ledger): 500. */
    INTERNAL(500);

    private final int httpStatus;

    Reason(int httpStatus) {
      this.httpStatus = httpStatus;
    }

    public int httpStatus() {
      return httpStatus;
    }
  }

  private static final long serialVersionUID = 1L;

  private final Reason reason;

  public ParticipationException(Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }
}
