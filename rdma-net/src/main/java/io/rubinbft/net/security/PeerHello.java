package io.rubinbft.net.security;

import static io.rubinbft.net.frame.FrameDescriptor.HELLO_MAX_FRAME_OFFSET;
import static io.rubinbft.net.frame.FrameDescriptor.HELLO_MAX_MESSAGE_OFFSET;
import static io.rubinbft.net.frame.FrameDescriptor.HELLO_NONCE_LENGTH;
import static io.rubinbft.net.frame.FrameDescriptor.HELLO_NONCE_OFFSET;
import static io.rubinbft.net.frame.FrameDescriptor.HELLO_RECEIVE_SLOTS_OFFSET;
import static io.rubinbft.net.frame.FrameDescriptor.HELLO_ROLE_OFFSET;
import static io.rubinbft.net.frame.FrameDescriptor.HELLO_VARIABLE_OFFSET;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.X509EncodedKeySpec;
import org.agrona.DirectBuffer;

/**
 * A peer's HELLO, parsed from untrusted bytes with every length checked. Nothing in it is proven
 * until the peer's AUTH signature over both HELLOs verifies under {@link #certificate}.
 *
 * @param bytes the whole HELLO payload as it came, for the AUTH transcript
 */
record PeerHello(
    HelloParameters parameters,
    Role role,
    byte[] nonce,
    PublicKey ephemeralKey,
    X509Certificate certificate,
    String transport,
    byte[] bytes) {

  static PeerHello parse(DirectBuffer buffer, int offset, int length) throws HandshakeRejected {
    if (length < HELLO_VARIABLE_OFFSET) {
      throw new HandshakeRejected(
          "HELLO is " + length + " bytes but its fixed part alone is " + HELLO_VARIABLE_OFFSET);
    }
    HelloParameters parameters =
        new HelloParameters(
            buffer.getInt(offset + HELLO_RECEIVE_SLOTS_OFFSET),
            buffer.getInt(offset + HELLO_MAX_FRAME_OFFSET),
            buffer.getInt(offset + HELLO_MAX_MESSAGE_OFFSET));
    int roleCode = buffer.getInt(offset + HELLO_ROLE_OFFSET);
    Role role =
        Handshake.roleFromCode(roleCode)
            .orElseThrow(() -> new HandshakeRejected("HELLO's role code is " + roleCode));
    byte[] nonce = new byte[HELLO_NONCE_LENGTH];
    buffer.getBytes(offset + HELLO_NONCE_OFFSET, nonce);
    int end = offset + length;
    int at = offset + HELLO_VARIABLE_OFFSET;
    byte[] ephemeral = HelloFields.getField(buffer, at, end, "ephemeral key");
    at = HelloFields.after(buffer, at);
    byte[] certificate = HelloFields.getField(buffer, at, end, "certificate");
    at = HelloFields.after(buffer, at);
    byte[] transport = HelloFields.getField(buffer, at, end, "transport");
    at = HelloFields.after(buffer, at);
    if (at != end) {
      throw new HandshakeRejected("HELLO has " + (end - at) + " bytes after its transport");
    }
    byte[] bytes = new byte[length];
    buffer.getBytes(offset, bytes);
    return new PeerHello(
        parameters,
        role,
        nonce,
        decodeEphemeral(ephemeral),
        decodeCertificate(certificate),
        new String(transport, StandardCharsets.US_ASCII),
        bytes);
  }

  private static PublicKey decodeEphemeral(byte[] encoded) throws HandshakeRejected {
    try {
      return KeyFactory.getInstance("X25519").generatePublic(new X509EncodedKeySpec(encoded));
    } catch (GeneralSecurityException e) {
      throw new HandshakeRejected("HELLO's ephemeral key is not an X25519 key", e);
    }
  }

  private static X509Certificate decodeCertificate(byte[] encoded) throws HandshakeRejected {
    try {
      return (X509Certificate)
          CertificateFactory.getInstance("X.509")
              .generateCertificate(new ByteArrayInputStream(encoded));
    } catch (GeneralSecurityException e) {
      throw new HandshakeRejected("HELLO's certificate is not a DER X.509 certificate", e);
    }
  }
}
