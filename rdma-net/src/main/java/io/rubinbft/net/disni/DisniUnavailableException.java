package io.rubinbft.net.disni;

import io.rubinbft.net.verbs.VerbsException;

/** The DiSNI binding cannot start here; the message says what is missing and what to use. */
public final class DisniUnavailableException extends VerbsException {

  private static final long serialVersionUID = 1L;

  DisniUnavailableException(String message, Throwable cause) {
    super("disni transport unavailable: " + message, cause);
  }
}
