package io.rubinbft.bft.sim;

/** A simulated run broke one of the protocol's invariants. */
public final class InvariantViolation extends AssertionError {

  public InvariantViolation(String message) {
    super(message);
  }

  public InvariantViolation(String message, Throwable cause) {
    super(message, cause);
  }
}
