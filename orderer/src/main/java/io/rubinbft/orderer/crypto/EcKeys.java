package io.rubinbft.orderer.crypto;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.sec.ECPrivateKey;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.jspecify.annotations.Nullable;

/**
 * ECDSA P-256 keys: on the chosen provider, import, PEM loading (cryptogen's keystore) and
 * generation; for the crypto material the node generates itself, keys as Fabric's cryptogen makes
 * them and their subject key identifiers.
 */
public final class EcKeys {

  /**
   * BouncyCastle's provider, used as an instance (never registered globally): its PKCS#8 encoding
   * names the curve and carries the public key, as Go's {@code x509.MarshalPKCS8PrivateKey} does.
   */
  public static final BouncyCastleProvider CRYPTOGEN_PROVIDER = new BouncyCastleProvider();

  private static final int P256_ORDER_BITS = 256;

  private final CryptoProvider provider;

  public EcKeys(CryptoProvider provider) {
    this.provider = provider;
  }

  /**
   * The same public key as an object of the provider's own class, so verification does not convert
   * it on every call. Do this once per identity (certificate parsers return the JDK's key class).
   */
  public PublicKey importPublic(PublicKey key) throws GeneralSecurityException {
    return provider.newKeyFactory().generatePublic(new X509EncodedKeySpec(key.getEncoded()));
  }

  /**
   * An EC private key from PEM: PKCS#8 ("PRIVATE KEY", as cryptogen writes {@code priv_sk}) or SEC1
   * ("EC PRIVATE KEY").
   */
  public PrivateKey privateKeyFromPem(String pem) throws GeneralSecurityException {
    PrivateKeyInfo info;
    try {
      info = Pem.privateKeyInfo(pem.getBytes(StandardCharsets.US_ASCII), "the PEM private key");
    } catch (IllegalArgumentException e) {
      throw new GeneralSecurityException(e.getMessage(), e);
    }
    try {
      return provider.newKeyFactory().generatePrivate(new PKCS8EncodedKeySpec(info.getEncoded()));
    } catch (IOException e) {
      throw new GeneralSecurityException("cannot re-encode the private key", e);
    }
  }

  /** A fresh P-256 key pair (local clusters, tests). */
  public KeyPair generateP256() {
    return p256(provider.newKeyPairGenerator(), null);
  }

  /** A fresh P-256 key pair from {@code random}, as cryptogen makes one. */
  public static KeyPair generateCryptogen(SecureRandom random) {
    try {
      return p256(KeyPairGenerator.getInstance("EC", CRYPTOGEN_PROVIDER), random);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("BouncyCastle cannot make a P-256 key pair", e);
    }
  }

  private static KeyPair p256(KeyPairGenerator generator, @Nullable SecureRandom random) {
    try {
      ECGenParameterSpec curve = new ECGenParameterSpec("secp256r1");
      if (random == null) {
        generator.initialize(curve);
      } else {
        generator.initialize(curve, random);
      }
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(
          generator.getProvider().getName() + " does not offer P-256", e);
    }
    return generator.generateKeyPair();
  }

  /**
   * A key of {@link #generateCryptogen} as Go's {@code x509.MarshalPKCS8PrivateKey} encodes it:
   * PKCS#8 naming the curve once, in the algorithm identifier, with the public key inside
   * (BouncyCastle would repeat the curve inside the key; both parse, this is byte-for-byte the
   * shape Fabric's tools write).
   */
  public static byte[] cryptogenPkcs8(PrivateKey key) {
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
  public static byte[] subjectKeyId(PublicKey publicKey) {
    byte[] point =
        SubjectPublicKeyInfo.getInstance(publicKey.getEncoded()).getPublicKeyData().getBytes();
    try {
      return MessageDigest.getInstance("SHA-256").digest(point);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("every Java platform provides SHA-256", e);
    }
  }
}
