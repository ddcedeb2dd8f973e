package io.rubinbft.orderer.msp;

/** A channel config's MSP or policy definition that cannot be used; the message names the part. */
public final class MspConfigException extends Exception {

  private static final long serialVersionUID = 1L;

  public MspConfigException(String message) {
    super(message);
  }

  public MspConfigException(String message, Throwable cause) {
    super(message, cause);
  }
}
