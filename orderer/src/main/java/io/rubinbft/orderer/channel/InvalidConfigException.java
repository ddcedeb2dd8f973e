package io.rubinbft.orderer.channel;

/**
 * A config block that this orderer cannot run a channel from. The message names the block, the
 * channel when known, and the offending field, e.g. {@code config block 0 for channel 'x':
 * ConsensusType is 'etcdraft' but this orderer only runs 'BFT'}.
 */
public final class InvalidConfigException extends Exception {

  private static final long serialVersionUID = 1L;

  public InvalidConfigException(String message) {
    super(message);
  }

  public InvalidConfigException(String message, Throwable cause) {
    super(message, cause);
  }
}
