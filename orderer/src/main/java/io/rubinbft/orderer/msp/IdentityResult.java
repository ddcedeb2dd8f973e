package io.rubinbft.orderer.msp;

/** Outcome of deserializing and validating a {@code SerializedIdentity}. */
public sealed interface IdentityResult {

  /** The identity is valid under its MSP. */
  record Valid(Identity identity) implements IdentityResult {}

  /** Why the identity is unusable (for logs; clients see only the policy failure). */
  record Invalid(String reason) implements IdentityResult {}
}
