package io.rubinbft.net.security;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.MessageDigest;
import javax.crypto.KDF;
import javax.crypto.KeyAgreement;
import javax.crypto.SecretKey;
import javax.crypto.spec.HKDFParameterSpec;

/**
 * Derives the two per-direction keys (AES-256, see {@link FrameCipher}) of a connection:
 * HKDF-SHA256 over the X25519 secret, salted with the SHA-256 of both HELLOs (so both nonces, both
 * ephemeral keys and both certificates) and labelled with the direction, so a frame can be neither
 * replayed across connections nor reflected back to its sender.
 */
final class SessionKeys {

  private static final int KEY_BYTES = 32;
  private static final String INITIATOR_TO_ACCEPTOR = "rubin-net v3 initiator to acceptor";
  private static final String ACCEPTOR_TO_INITIATOR = "rubin-net v3 acceptor to initiator";

  private SessionKeys() {}

  static Session derive(Role role, KeyPair ownEphemeral, PeerHello peer, byte[] transcript)
      throws HandshakeRejected {
    try {
      KeyAgreement agreement = KeyAgreement.getInstance("X25519");
      agreement.init(ownEphemeral.getPrivate());
      agreement.doPhase(peer.ephemeralKey(), true);
      byte[] secret = agreement.generateSecret();
      byte[] salt = MessageDigest.getInstance("SHA-256").digest(transcript);
      SecretKey toAcceptor = expand(secret, salt, INITIATOR_TO_ACCEPTOR);
      SecretKey toInitiator = expand(secret, salt, ACCEPTOR_TO_INITIATOR);
      boolean initiator = role == Role.INITIATOR;
      return new Session(
          peer.certificate(),
          peer.parameters(),
          new FrameCipher(initiator ? toAcceptor : toInitiator),
          new FrameCipher(initiator ? toInitiator : toAcceptor));
    } catch (GeneralSecurityException e) {
      throw new HandshakeRejected("key agreement with the peer's ephemeral key failed", e);
    }
  }

  private static SecretKey expand(byte[] secret, byte[] salt, String label)
      throws GeneralSecurityException {
    KDF hkdf = KDF.getInstance("HKDF-SHA256");
    return hkdf.deriveKey(
        "AES",
        HKDFParameterSpec.ofExtract()
            .addIKM(secret)
            .addSalt(salt)
            .thenExpand(label.getBytes(StandardCharsets.US_ASCII), KEY_BYTES));
  }
}
