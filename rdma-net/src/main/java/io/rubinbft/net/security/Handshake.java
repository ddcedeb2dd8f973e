package io.rubinbft.net.security;

import static io.rubinbft.net.frame.FrameDescriptor.HELLO_CONTEXT;
import static io.rubinbft.net.frame.FrameDescriptor.HELLO_MAX_FRAME_OFFSET;
import static io.rubinbft.net.frame.FrameDescriptor.HELLO_MAX_MESSAGE_OFFSET;
import static io.rubinbft.net.frame.FrameDescriptor.HELLO_NONCE_LENGTH;
import static io.rubinbft.net.frame.FrameDescriptor.HELLO_NONCE_OFFSET;
import static io.rubinbft.net.frame.FrameDescriptor.HELLO_RECEIVE_SLOTS_OFFSET;
import static io.rubinbft.net.frame.FrameDescriptor.HELLO_ROLE_OFFSET;
import static io.rubinbft.net.frame.FrameDescriptor.HELLO_VARIABLE_OFFSET;

import io.rubinbft.net.Identity;
import io.rubinbft.net.PeerAuthenticator;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.util.Optional;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One side of the connection handshake. Both sides send a HELLO at once (no round trip before the
 * first one): window sizes, a fresh nonce and X25519 key, the identity certificate, and a signature
 * with the identity key over all of it. A peer's HELLO is accepted when its signature verifies
 * under its certificate, the authenticator accepts the certificate and its role is the opposite of
 * ours; then both directions' MAC keys follow from the X25519 secret (see {@link SessionKeys}). A
 * replayed HELLO gets its sender nowhere: without the ephemeral private key it cannot MAC a single
 * frame.
 */
public final class Handshake {

  private final Identity identity;
  private final Role role;
  private final PeerAuthenticator authenticator;
  private final KeyPair ephemeral;
  private final byte[] nonce = new byte[HELLO_NONCE_LENGTH];

  public Handshake(
      Identity identity, Role role, PeerAuthenticator authenticator, SecureRandom random) {
    this.identity = identity;
    this.role = role;
    this.authenticator = authenticator;
    random.nextBytes(nonce);
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("X25519");
      generator.initialize(255, random);
      this.ephemeral = generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK offers no X25519 key pairs", e);
    }
  }

  /**
   * Writes this side's HELLO payload at {@code offset}; returns its length.
   *
   * @throws IllegalArgumentException if it does not fit in {@code capacity} bytes
   */
  public int writeHello(
      MutableDirectBuffer buffer, int offset, int capacity, HelloParameters local) {
    byte[] certificate = encoded(identity.certificate());
    byte[] ephemeralKey = ephemeral.getPublic().getEncoded();
    UnsafeBuffer hello = new UnsafeBuffer(new byte[capacity]);
    hello.putInt(HELLO_RECEIVE_SLOTS_OFFSET, local.receiveSlots());
    hello.putInt(HELLO_MAX_FRAME_OFFSET, local.maxFrameBytes());
    hello.putInt(HELLO_MAX_MESSAGE_OFFSET, local.maxMessageBytes());
    hello.putInt(HELLO_ROLE_OFFSET, role.code());
    hello.putBytes(HELLO_NONCE_OFFSET, nonce);
    int end = HELLO_VARIABLE_OFFSET;
    end = HelloFields.putField(hello, end, ephemeralKey);
    end = HelloFields.putField(hello, end, certificate);
    byte[] signature = sign(hello.byteArray(), end);
    end = HelloFields.putField(hello, end, signature);
    buffer.putBytes(offset, hello, 0, end);
    return end;
  }

  /** Checks the peer's HELLO payload and derives the session's keys. */
  public Session acceptHello(DirectBuffer buffer, int offset, int length) throws HandshakeRejected {
    PeerHello peer = PeerHello.parse(buffer, offset, length);
    if (peer.role() != role.peer()) {
      throw new HandshakeRejected("peer's role is " + peer.role() + " but must be " + role.peer());
    }
    peer.verifySignature(HELLO_CONTEXT);
    Optional<String> refused = authenticator.rejectReason(peer.certificate());
    if (refused.isPresent()) {
      throw new HandshakeRejected(refused.get());
    }
    return SessionKeys.derive(role, nonce, ephemeral, peer);
  }

  private byte[] sign(byte[] hello, int length) {
    try {
      Signature signer =
          Signature.getInstance(signatureAlgorithm(identity.privateKey().getAlgorithm()));
      signer.initSign(identity.privateKey());
      signer.update(HELLO_CONTEXT.getBytes(StandardCharsets.US_ASCII));
      signer.update(hello, 0, length);
      return signer.sign();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot sign the HELLO with the identity key", e);
    }
  }

  /** The signature algorithm for an identity key algorithm (EC, RSA, Ed25519). */
  static String signatureAlgorithm(String keyAlgorithm) {
    return switch (keyAlgorithm) {
      case "EC" -> "SHA256withECDSA";
      case "RSA" -> "SHA256withRSA";
      case "Ed25519", "EdDSA" -> "Ed25519";
      default ->
          throw new IllegalArgumentException(
              "identity keys of algorithm " + keyAlgorithm + " are not supported");
    };
  }

  private static byte[] encoded(X509Certificate certificate) {
    try {
      return certificate.getEncoded();
    } catch (CertificateEncodingException e) {
      throw new IllegalStateException("the identity certificate cannot be encoded", e);
    }
  }

  /** Role codes as written in the HELLO. */
  static Optional<Role> roleFromCode(int code) {
    for (Role candidate : Role.values()) {
      if (candidate.code() == code) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }
}
