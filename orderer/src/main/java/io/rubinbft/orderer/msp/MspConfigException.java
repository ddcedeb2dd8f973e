package io.rubinbft.orderer.msp;

import java.util.function.Function;

/** A channel config's MSP or policy definition that cannot be used; the message names the part. */
public final class MspConfigException extends Exception {

  private static final long serialVersionUID = 1L;

  public MspConfigException(String message) {
    super(message);
  }

  public MspConfigException(String message, Throwable cause) {
    super(message, cause);
  }

  /** The exception for a part named {@code what} that failed for a reason given later. */
  static Function<String, MspConfigException> about(String what) {
    return why -> new MspConfigException(what + ": " + why);
  }
}
