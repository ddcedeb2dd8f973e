package io.rubinbft.orderer.crypto;

import java.io.IOException;
import java.io.StringReader;
import java.security.GeneralSecurityException;
import java.security.InvalidAlgorithmParameterException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;

/** EC keys on the chosen provider: import, PEM loading (cryptogen's keystore), generation. */
public final class EcKeys {

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
    Object parsed;
    try (PEMParser parser = new PEMParser(new StringReader(pem))) {
      parsed = parser.readObject();
    } catch (IOException e) {
      throw new GeneralSecurityException("unreadable PEM private key: " + e.getMessage(), e);
    }
    PrivateKeyInfo info =
        switch (parsed) {
          case PrivateKeyInfo pkcs8 -> pkcs8;
          case PEMKeyPair sec1 -> sec1.getPrivateKeyInfo();
          case null -> throw new GeneralSecurityException("no PEM object found");
          default ->
              throw new GeneralSecurityException(
                  "expected an EC private key in PEM but found "
                      + parsed.getClass().getSimpleName());
        };
    try {
      return provider.newKeyFactory().generatePrivate(new PKCS8EncodedKeySpec(info.getEncoded()));
    } catch (IOException e) {
      throw new GeneralSecurityException("cannot re-encode the private key", e);
    }
  }

  /** A fresh P-256 key pair (local clusters, tests). */
  public KeyPair generateP256() {
    KeyPairGenerator generator = provider.newKeyPairGenerator();
    try {
      generator.initialize(new ECGenParameterSpec("secp256r1"));
    } catch (InvalidAlgorithmParameterException e) {
      throw new IllegalStateException(provider.name() + " does not offer P-256", e);
    }
    return generator.generateKeyPair();
  }
}
