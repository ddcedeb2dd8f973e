package io.rubinbft.orderer.msp;

import com.google.protobuf.ByteString;

/**
 * An organizational unit as Fabric identifies it: the OU string and the certifiers identifier
 * (SHA-256 over the DER of the CA certificates that certify it, issuer first up to the root). An
 * empty certifiers identifier in a configured OU means "certified by any of the MSP's CAs".
 */
public record OuIdentifier(String organizationalUnit, ByteString certifiersIdentifier) {

  /** Whether an identity's OU {@code held} is this configured OU. */
  boolean matchedBy(OuIdentifier held) {
    return organizationalUnit.equals(held.organizationalUnit)
        && (certifiersIdentifier.isEmpty()
            || certifiersIdentifier.equals(held.certifiersIdentifier));
  }
}
