package io.rubinbft.orderer.policy;

/** A policy in a channel config that cannot be built; the message names its path. */
public final class PolicyConfigException extends Exception {

  private static final long serialVersionUID = 1L;

  public PolicyConfigException(String message) {
    super(message);
  }

  public PolicyConfigException(String message, Throwable cause) {
    super(message, cause);
  }
}
