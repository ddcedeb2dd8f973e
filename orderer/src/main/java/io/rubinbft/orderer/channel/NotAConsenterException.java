package io.rubinbft.orderer.channel;

/** This node's certificate matches no consenter of the channel, so it cannot run a replica. */
public final class NotAConsenterException extends Exception {

  private static final long serialVersionUID = 1L;

  public NotAConsenterException(String message) {
    super(message);
  }
}
