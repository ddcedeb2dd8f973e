package io.rubinbft.net.security;

import static io.rubinbft.net.frame.FrameDescriptor.AUTH_CONTEXT;
import static io.rubinbft.net.frame.FrameDescriptor.HELLO_MAX_FRAME_OFFSET;
import static io.rubinbft.net.frame.FrameDescriptor.HELLO_MAX_MESSAGE_OFFSET;
import static io.rubinbft.net.frame.FrameDescriptor.HELLO_NONCE_LENGTH;
import static io.rubinbft.net.frame.FrameDescriptor.HELLO_NONCE_OFFSET;
import static io.rubinbft.net.frame.FrameDescriptor.HELLO_RECEIVE_SLOTS_OFFSET;
import static io.rubinbft.net.frame.FrameDescriptor.HELLO_ROLE_OFFSET;
import static io.rubinbft.net.frame.FrameDescriptor.HELLO_VARIABLE_OFFSET;

import io.rubinbft.net.Identity;
import io.rubinbft.net.PeerAuthenticator;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.jspecify.annotations.Nullable;

/**
 * One side of the connection handshake, two frames each way with no round trip before the first
 * (see {@code FrameDescriptor}). Both sides send a HELLO at once: window sizes, a fresh nonce and
 * X25519 key, the identity certificate and the transport's name. On the peer's HELLO ({@link
 * #acceptHello}) this side checks its role, transport and certificate and derives both directions'
 * keys; then each side sends AUTH ({@link #writeAuth}, encrypted under the new key): its identity
 * key's signature over its role and both HELLOs. The peer is authenticated when its AUTH verifies
 * ({@link #acceptAuth}): it holds the certificate's key and signed this very exchange, this side's
 * fresh nonce among it, so a recorded handshake replayed on a new connection fails (its AUTH does
 * not decrypt, or its signature covers another nonce).
 *
 * <p>Use: {@code writeHello}, then {@code acceptHello} with the peer's, then {@code writeAuth},
 * then {@code acceptAuth} with the peer's.
 */
public final class Handshake {

  private final Identity identity;
  private final Role role;
  private final PeerAuthenticator authenticator;
  private final String transport;
  private final KeyPair ephemeral;
  private final byte[] nonce = new byte[HELLO_NONCE_LENGTH];
  private byte @Nullable [] ownHello;
  private @Nullable PeerHello peerHello;

  /**
   * @param transport the transport's name ({@code Transport.name()}); both sides must agree
   */
  public Handshake(
      Identity identity,
      Role role,
      PeerAuthenticator authenticator,
      SecureRandom random,
      String transport) {
    this.identity = identity;
    this.role = role;
    this.authenticator = authenticator;
    this.transport = transport;
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
    UnsafeBuffer hello = new UnsafeBuffer(new byte[capacity]);
    hello.putInt(HELLO_RECEIVE_SLOTS_OFFSET, local.receiveSlots());
    hello.putInt(HELLO_MAX_FRAME_OFFSET, local.maxFrameBytes());
    hello.putInt(HELLO_MAX_MESSAGE_OFFSET, local.maxMessageBytes());
    hello.putInt(HELLO_ROLE_OFFSET, role.code());
    hello.putBytes(HELLO_NONCE_OFFSET, nonce);
    int end = HELLO_VARIABLE_OFFSET;
    end = HelloFields.putField(hello, end, ephemeral.getPublic().getEncoded());
    end = HelloFields.putField(hello, end, encoded(identity.certificate()));
    end = HelloFields.putField(hello, end, transport.getBytes(StandardCharsets.US_ASCII));
    ownHello = Arrays.copyOf(hello.byteArray(), end);
    buffer.putBytes(offset, ownHello);
    return end;
  }

  /**
   * Checks the peer's HELLO payload (role, transport, the authenticator's word on its certificate)
   * and derives the session's keys. The peer is not authenticated yet: that takes its AUTH.
   */
  public Session acceptHello(DirectBuffer buffer, int offset, int length) throws HandshakeRejected {
    if (ownHello == null) {
      throw new IllegalStateException("the peer's HELLO came before this side wrote its own");
    }
    PeerHello peer = PeerHello.parse(buffer, offset, length);
    if (peer.role() != role.peer()) {
      throw new HandshakeRejected("peer's role is " + peer.role() + " but must be " + role.peer());
    }
    if (!peer.transport().equals(transport)) {
      throw new HandshakeRejected(
          "peer's transport is \"" + peer.transport() + "\" but this side's is " + transport);
    }
    // Before any key agreement, so a stranger's certificate costs little; AUTH proves it later.
    Optional<String> refused = authenticator.rejectReason(peer.certificate());
    if (refused.isPresent()) {
      throw new HandshakeRejected(refused.get());
    }
    peerHello = peer;
    return SessionKeys.derive(role, ephemeral, peer, transcript());
  }

  /**
   * Writes this side's AUTH payload (its signature over its role and both HELLOs) at {@code
   * offset}; returns its length.
   *
   * @throws IllegalArgumentException if it does not fit in {@code capacity} bytes
   */
  public int writeAuth(MutableDirectBuffer buffer, int offset, int capacity) {
    requirePeerHello();
    byte[] signature;
    try {
      Signature signer =
          Signature.getInstance(signatureAlgorithm(identity.privateKey().getAlgorithm()));
      signer.initSign(identity.privateKey());
      signed(signer, role);
      signature = signer.sign();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot sign the handshake with the identity key", e);
    }
    if (signature.length > capacity) {
      throw new IllegalArgumentException(
          "a signature of " + signature.length + " bytes does not fit in " + capacity);
    }
    buffer.putBytes(offset, signature);
    return signature.length;
  }

  /** Checks the peer's AUTH payload: its signature over its role and both HELLOs. */
  public void acceptAuth(DirectBuffer buffer, int offset, int length) throws HandshakeRejected {
    PeerHello peer = requirePeerHello();
    byte[] signature = new byte[length];
    buffer.getBytes(offset, signature);
    X509Certificate certificate = peer.certificate();
    try {
      PublicKey identityKey = certificate.getPublicKey();
      Signature verifier = Signature.getInstance(signatureAlgorithm(identityKey.getAlgorithm()));
      verifier.initVerify(identityKey);
      signed(verifier, peer.role());
      if (!verifier.verify(signature)) {
        throw new HandshakeRejected(
            "AUTH signature does not verify under the certificate of "
                + certificate.getSubjectX500Principal().getName()
                + " over this handshake");
      }
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new HandshakeRejected("AUTH signature cannot be checked: " + e.getMessage(), e);
    }
  }

  /** Feeds what an AUTH signature covers: the context, the signer's role and the transcript. */
  private void signed(Signature signature, Role signer) throws GeneralSecurityException {
    signature.update(AUTH_CONTEXT.getBytes(StandardCharsets.US_ASCII));
    signature.update(signer.code());
    signature.update(transcript());
  }

  /** Both HELLO payloads, the initiator's first, each after its length (32 bits). */
  private byte[] transcript() {
    byte[] own = Objects.requireNonNull(ownHello);
    byte[] peer = requirePeerHello().bytes();
    byte[] first = role == Role.INITIATOR ? own : peer;
    byte[] second = role == Role.INITIATOR ? peer : own;
    return ByteBuffer.allocate(2 * Integer.BYTES + first.length + second.length)
        .putInt(first.length)
        .put(first)
        .putInt(second.length)
        .put(second)
        .array();
  }

  private PeerHello requirePeerHello() {
    if (peerHello == null) {
      throw new IllegalStateException("AUTH before the peer's HELLO was accepted");
    }
    return peerHello;
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
