package io.rubinbft.orderer.configtx;

import org.hyperledger.fabric.protos.common.Status;

/**
 * A config update that cannot be applied, with the Broadcast status Fabric answers and a message in
 * Fabric's words that names the failing element or policy, e.g. {@code error authorizing update:
 * error validating DeltaSet: policy for [Value] /Channel/Orderer/BatchSize not satisfied: ...}.
 */
public final class ConfigUpdateException extends Exception {

  private static final long serialVersionUID = 1L;

  private final transient Status status;

  public ConfigUpdateException(Status status, String message) {
    super(message);
    this.status = status;
  }

  /** A 400: the update itself is wrong (Fabric answers every config failure so but Writers). */
  static ConfigUpdateException badRequest(String message) {
    return new ConfigUpdateException(Status.BAD_REQUEST, message);
  }

  public Status status() {
    return status;
  }

  /** The same failure with Fabric's context prefix, e.g. "error authorizing update: ". */
  ConfigUpdateException wrap(String context) {
    return new ConfigUpdateException(status, context + ": " + getMessage());
  }
}
