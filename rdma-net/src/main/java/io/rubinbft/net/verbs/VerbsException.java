package io.rubinbft.net.verbs;

import java.io.IOException;

/** A verbs call failed; the message names the call and the device's reason (e.g. errno text). */
public class VerbsException extends IOException {

  private static final long serialVersionUID = 1L;

  public VerbsException(String message) {
    super(message);
  }

  public VerbsException(String message, Throwable cause) {
    super(message, cause);
  }
}
