package io.rubinbft.orderer.crypto;

/** Outcome of checking one ECDSA signature; the reasons are for logs, never shown to clients. */
public enum SignatureVerdict {
  VALID("valid"),
  MALFORMED("signature is not a canonical DER ECDSA signature with 0 < r, s < n"),
  HIGH_S("signature has S > n/2 (Fabric accepts only low-S signatures)"),
  WRONG_KEY_TYPE("public key is not an elliptic-curve key"),
  MISMATCH("signature does not match the message and public key");

  private final String reason;

  SignatureVerdict(String reason) {
    this.reason = reason;
  }

  public boolean isValid() {
    return this == VALID;
  }

  public String reason() {
    return reason;
  }
}
