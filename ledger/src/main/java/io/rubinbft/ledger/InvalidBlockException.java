package io.rubinbft.ledger;

/** An append was refused because the block does not extend the chain; the message says why. */
public final class InvalidBlockException extends RuntimeException {

  public InvalidBlockException(String channel, String reason) {
    super("block refused by channel '" + channel + "': " + reason);
  }
}
