package io.rubinbft.orderer.bootstrap;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.spec.ECGenParameterSpec;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.sec.ECPrivateKey;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.jce.provider.BouncyCastleProvider;

/** ECDSA P-256 keys as Fabric's cryptogen makes them, and their subject key identifiers. */
final class EcKeys {

  /**
   * BouncyCastle's provider, used as an instance (never registered globally): its PKCS#8 encoding
   * names the curve and carries the public key, as Go's {@code x509.MarshalPKCS8PrivateKey} does.
   */
  static final BouncyCastleProvider PROVIDER = new BouncyCastleProvider();

  private static final int P256_ORDER_BITS = 256;

  private EcKeys() {}

  static KeyPair generate(SecureRandom random) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC", PROVIDER);
      generator.initialize(new ECGenParameterSpec("secp256r1"), random);
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("BouncyCastle cannot make a P-256 key pair", e);
    }
  }

  /**
   * The private key as Go's {@code x509.MarshalPKCS8PrivateKey} encodes it: PKCS#8 naming the curve
   * once, in the algorithm identifier, with the public key inside (BouncyCastle would repeat the
   * curve inside the key; both parse, this is byte-for-byte the shape Fabric's tools write).
   */
  static byte[] pkcs8(PrivateKey key) {
    try {
      PrivateKeyInfo info = PrivateKeyInfo.getInstance(key.getEncoded());
      ECPrivateKey inner = ECPrivateKey.getInstance(info.parsePrivateKey());
      ECPrivateKey trimmed =
          new ECPrivateKey(P256_ORDER_BITS, inner.getKey(), inner.getPublicKey(), null);
      return new PrivateKeyInfo(info.getPrivateKeyAlgorithm(), trimmed)
          .getEncoded(ASN1Encoding.DER);
    } catch (IOException e) {
      throw new UncheckedIOException("re-encoding a P-256 private key in memory failed", e);
    }
  }

  /**
   * cryptogen's subject key identifier: SHA-256 of the uncompressed public point (not RFC 5280's
   * SHA-1), so that a generated CA's SKI has the same length and meaning as Fabric's.
   */
  static byte[] subjectKeyId(PublicKey publicKey) {
    byte[] point =
        SubjectPublicKeyInfo.getInstance(publicKey.getEncoded()).getPublicKeyData().getBytes();
    try {
      return MessageDigest.getInstance("SHA-256").digest(point);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("every Java platform provides SHA-256", e);
    }
  }
}
