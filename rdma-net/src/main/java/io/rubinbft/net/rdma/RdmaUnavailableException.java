package io.rubinbft.net.rdma;

import io.rubinbft.net.verbs.VerbsException;

/**
 * This machine cannot run the rdma transport: a library or a device is missing. The message says
 * which, how to get it, and which transport to choose instead.
 */
public final class RdmaUnavailableException extends VerbsException {

  private static final long serialVersionUID = 1L;

  static final String ALTERNATIVES =
      "choose transport tcp (any network) or shm (processes on one host) instead";

  RdmaUnavailableException(String whatIsMissing) {
    super("rdma transport unavailable: " + whatIsMissing + "; " + ALTERNATIVES);
  }
}
