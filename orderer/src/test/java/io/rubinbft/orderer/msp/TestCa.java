package io.rubinbft.orderer.msp;

import com.google.protobuf.ByteString;
import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.crypto.EcKeys;
import io.rubinbft.orderer.crypto.EcdsaSigner;
import io.rubinbft.orderer.crypto.Fixtures;
import io.rubinbft.orderer.identity.SigningIdentity;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.AuthorityKeyIdentifier;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v2CRLBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CRLConverter;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.hyperledger.fabric.protos.msp.SerializedIdentity;

/** A certificate authority for tests: cryptogen's CA from the fixtures, or a fresh one. */
public final class TestCa {

  private static final AtomicLong SERIALS = new AtomicLong(1000);

  private final X509Certificate certificate;
  private final PrivateKey key;

  private TestCa(X509Certificate certificate, PrivateKey key) {
    this.certificate = certificate;
    this.key = key;
  }

  /** The CA cryptogen made for an org, e.g. "crypto/peerOrganizations/org1.example.com/ca". */
  public static TestCa fromFixtures(String caDirectory, String certificateFile) {
    try {
      PrivateKey key =
          new EcKeys(CryptoProvider.jdk())
              .privateKeyFromPem(Fixtures.text(caDirectory + "/priv_sk"));
      return new TestCa(parse(Fixtures.text(caDirectory + "/" + certificateFile)), key);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A CA whose certificate and key are PEM files, e.g. one our bootstrap generated. */
  public static TestCa fromFiles(Path certificate, Path key) {
    try {
      return new TestCa(
          parse(Files.readString(certificate)),
          new EcKeys(CryptoProvider.jdk()).privateKeyFromPem(Files.readString(key)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static TestCa org1() {
    return fromFixtures(
        "crypto/peerOrganizations/org1.example.com/ca", "ca.org1.example.com-cert.pem");
  }

  /** A self-signed CA no channel knows. */
  public static TestCa generate(String commonName) {
    return generate(commonName, true);
  }

  /** A self-signed CA, with or without the Subject Key Identifier Fabric requires of a CA. */
  public static TestCa generate(String commonName, boolean subjectKeyIdentifier) {
    KeyPair keys = new EcKeys(CryptoProvider.jdk()).generateP256();
    X500Name name = new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.CN, commonName).build();
    return new TestCa(
        caCertificate(name, keys.getPrivate(), name, keys, subjectKeyIdentifier),
        keys.getPrivate());
  }

  /** An intermediate CA certified by this one. */
  public TestCa intermediate(String commonName) {
    KeyPair keys = new EcKeys(CryptoProvider.jdk()).generateP256();
    X500Name issuer = X500Name.getInstance(certificate.getSubjectX500Principal().getEncoded());
    X500Name name = new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.CN, commonName).build();
    return new TestCa(caCertificate(issuer, key, name, keys, true), keys.getPrivate());
  }

  private static X509Certificate caCertificate(
      X500Name issuer,
      PrivateKey issuerKey,
      X500Name subject,
      KeyPair keys,
      boolean subjectKeyIdentifier) {
    Instant now = Instant.now();
    try {
      JcaX509v3CertificateBuilder builder =
          new JcaX509v3CertificateBuilder(
              issuer,
              BigInteger.valueOf(SERIALS.incrementAndGet()),
              Date.from(now.minusSeconds(3600)),
              Date.from(now.plusSeconds(86_400L * 365)),
              subject,
              keys.getPublic());
      builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
      builder.addExtension(
          Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
      if (subjectKeyIdentifier) {
        // Fabric requires one of every CA, and matches CRLs to CAs by it.
        builder.addExtension(
            Extension.subjectKeyIdentifier,
            false,
            new JcaX509ExtensionUtils().createSubjectKeyIdentifier(keys.getPublic()));
      }
      return new JcaX509CertificateConverter().getCertificate(builder.build(signer(issuerKey)));
    } catch (IOException | GeneralSecurityException | OperatorCreationException e) {
      throw new IllegalStateException(e);
    }
  }

  public X509Certificate certificate() {
    return certificate;
  }

  /** A leaf certificate shaped like cryptogen's (C, ST, L, OU..., CN), with a fresh P-256 key. */
  public Issued issue(String commonName, List<String> ous, Instant notBefore, Instant notAfter) {
    KeyPair keys = new EcKeys(CryptoProvider.jdk()).generateP256();
    X500NameBuilder subject =
        new X500NameBuilder(BCStyle.INSTANCE)
            .addRDN(BCStyle.C, "US")
            .addRDN(BCStyle.ST, "California")
            .addRDN(BCStyle.L, "San Francisco");
    ous.forEach(ou -> subject.addRDN(BCStyle.OU, ou));
    subject.addRDN(BCStyle.CN, commonName);
    try {
      JcaX509v3CertificateBuilder builder =
          new JcaX509v3CertificateBuilder(
              certificate,
              BigInteger.valueOf(SERIALS.incrementAndGet()),
              Date.from(notBefore),
              Date.from(notAfter),
              subject.build(),
              keys.getPublic());
      builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
      builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
      return new Issued(
          new JcaX509CertificateConverter().getCertificate(builder.build(signer(key))), keys);
    } catch (IOException | GeneralSecurityException | OperatorCreationException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A leaf valid from an hour ago for a year. */
  public Issued issue(String commonName, List<String> ous) {
    Instant now = Instant.now();
    return issue(commonName, ous, now.minusSeconds(3600), now.plusSeconds(86_400L * 365));
  }

  /** A CRL by this CA revoking {@code revoked}. */
  public X509CRL revoke(X509Certificate revoked) {
    Date now = Date.from(Instant.now());
    X509v2CRLBuilder builder =
        new X509v2CRLBuilder(
            X500Name.getInstance(certificate.getSubjectX500Principal().getEncoded()), now);
    builder.addCRLEntry(revoked.getSerialNumber(), now, 0);
    try {
      // As Fabric CAs write it: the key identifier of the CA's Subject Key Identifier.
      builder.addExtension(
          Extension.authorityKeyIdentifier,
          false,
          new AuthorityKeyIdentifier(
              KeyIdentifiers.subjectKeyIdentifier(certificate).orElseThrow()));
      return new JcaX509CRLConverter().getCRL(builder.build(signer(key)));
    } catch (IOException | GeneralSecurityException | OperatorCreationException e) {
      throw new IllegalStateException(e);
    }
  }

  public static String pem(Object certificateOrCrl) {
    StringWriter text = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
      writer.writeObject(certificateOrCrl);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return text.toString();
  }

  /** A marshalled {@code SerializedIdentity} as clients put it in signature headers. */
  public static ByteString serialized(String mspId, X509Certificate certificate) {
    return SerializedIdentity.newBuilder()
        .setMspid(mspId)
        .setIdBytes(ByteString.copyFromUtf8(pem(certificate)))
        .build()
        .toByteString();
  }

  public static X509Certificate parse(String pem) {
    try {
      return (X509Certificate)
          CertificateFactory.getInstance("X.509")
              .generateCertificate(new ByteArrayInputStream(pem.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static ContentSigner signer(PrivateKey key) throws OperatorCreationException {
    return new JcaContentSignerBuilder("SHA256withECDSA").build(key);
  }

  /** An issued certificate and its key pair. */
  public record Issued(X509Certificate certificate, KeyPair keys) {

    /** The signing identity of this certificate as a member of {@code mspId}. */
    public SigningIdentity signingIdentity(String mspId, CryptoProvider provider) {
      return new SigningIdentity(
          mspId,
          pem(certificate).getBytes(StandardCharsets.UTF_8),
          new EcdsaSigner(provider, keys.getPrivate()));
    }
  }
}
