package io.rubinbft.net;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/** Self-signed P-256 replica identities for tests. */
public final class TestIdentities {

  private TestIdentities() {}

  /**
   * The identity of a peer named alice, made once for all tests (any fixed pair of peers will do).
   */
  public static Identity alice() {
    return Pair.ALICE;
  }

  /** The identity of a peer named bob, alice's counterpart, made once for all tests. */
  public static Identity bob() {
    return Pair.BOB;
  }

  /** Made on first use: key generation is slow. */
  private static final class Pair {
    static final Identity ALICE = create("alice");
    static final Identity BOB = create("bob");
  }

  /** A fresh identity whose certificate's subject is {@code CN=name}. */
  public static Identity create(String name) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"));
      KeyPair keys = generator.generateKeyPair();
      X500Name subject = new X500Name("CN=" + name);
      Instant now = Instant.parse("2026-01-01T00:00:00Z");
      JcaX509v3CertificateBuilder builder =
          new JcaX509v3CertificateBuilder(
              subject,
              BigInteger.valueOf(name.hashCode() & 0x7fffffffL),
              Date.from(now),
              Date.from(now.plus(3650, ChronoUnit.DAYS)),
              subject,
              keys.getPublic());
      var signer = new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate());
      var certificate = new JcaX509CertificateConverter().getCertificate(builder.build(signer));
      return new Identity(certificate, keys.getPrivate());
    } catch (GeneralSecurityException | OperatorCreationException e) {
      throw new IllegalStateException("cannot make a test identity", e);
    }
  }
}
