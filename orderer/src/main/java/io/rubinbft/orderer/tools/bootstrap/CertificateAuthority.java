package io.rubinbft.orderer.tools.bootstrap;

import io.rubinbft.orderer.crypto.EcKeys;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.security.KeyPair;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Date;
import java.util.List;
import java.util.stream.Stream;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.AuthorityKeyIdentifier;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.asn1.x509.SubjectKeyIdentifier;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.util.IPAddress;

/**
 * A self-signed ECDSA P-256 certificate authority that issues certificates with the subjects, key
 * usages and extensions Fabric's cryptogen gives them (C=US, ST=California, L=San Francisco;
 * SHA-256 subject key identifiers; 128-bit random serial numbers).
 */
final class CertificateAuthority {

  private final KeyPair keys;
  private final X509Certificate certificate;
  private final byte[] subjectKeyId;
  private final Validity validity;
  private final SecureRandom random;

  private CertificateAuthority(
      KeyPair keys, X509Certificate certificate, Validity validity, SecureRandom random) {
    this.keys = keys;
    this.certificate = certificate;
    this.subjectKeyId = EcKeys.subjectKeyId(keys.getPublic());
    this.validity = validity;
    this.random = random;
  }

  /** A new root CA named {@code CN=commonName, O=organization}, as cryptogen's ca and tlsca. */
  static CertificateAuthority create(
      String commonName, String organization, Validity validity, SecureRandom random) {
    KeyPair keys = EcKeys.generateCryptogen(random);
    X500Name subject =
        subject().addRDN(BCStyle.O, organization).addRDN(BCStyle.CN, commonName).build();
    X509v3CertificateBuilder builder =
        template(subject, subject, keys.getPublic(), validity, random);
    // Extensions in the order Go's x509 writes them: KU, EKU, BC, SKI, AKI, SAN.
    extend(
        builder,
        Extension.keyUsage,
        true,
        new KeyUsage(
            KeyUsage.digitalSignature
                | KeyUsage.keyEncipherment
                | KeyUsage.keyCertSign
                | KeyUsage.cRLSign));
    extend(
        builder,
        Extension.extendedKeyUsage,
        false,
        new ExtendedKeyUsage(
            new KeyPurposeId[] {KeyPurposeId.id_kp_clientAuth, KeyPurposeId.id_kp_serverAuth}));
    extend(builder, Extension.basicConstraints, true, new BasicConstraints(true));
    extend(
        builder,
        Extension.subjectKeyIdentifier,
        false,
        new SubjectKeyIdentifier(EcKeys.subjectKeyId(keys.getPublic())));
    X509Certificate certificate = sign(builder, keys);
    return new CertificateAuthority(keys, certificate, validity, random);
  }

  X509Certificate certificate() {
    return certificate;
  }

  /** The CA's private key as PKCS#8 DER. */
  byte[] privateKeyPkcs8() {
    return EcKeys.cryptogenPkcs8(keys.getPrivate());
  }

  /** An enrollment (MSP signing) certificate: digital signature only, one NodeOU. */
  X509Certificate issueEnrollment(String commonName, NodeOu ou, PublicKey key) {
    X500Name subject =
        subject().addRDN(BCStyle.OU, ou.identifier()).addRDN(BCStyle.CN, commonName).build();
    X509v3CertificateBuilder builder = template(issuer(), subject, key, validity, random);
    extend(builder, Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
    extendLeaf(builder);
    return sign(builder, keys);
  }

  /**
   * A TLS certificate usable as server and client, with DNS names and IP addresses (whatever parses
   * as a literal IP) as subject alternative names; none when the list is empty.
   */
  X509Certificate issueTls(String commonName, List<String> alternativeNames, PublicKey key) {
    X500Name subject = subject().addRDN(BCStyle.CN, commonName).build();
    X509v3CertificateBuilder builder = template(issuer(), subject, key, validity, random);
    extend(
        builder,
        Extension.keyUsage,
        true,
        new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
    extend(
        builder,
        Extension.extendedKeyUsage,
        false,
        new ExtendedKeyUsage(
            new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}));
    extendLeaf(builder);
    if (!alternativeNames.isEmpty()) {
      extend(builder, Extension.subjectAlternativeName, false, alternativeNames(alternativeNames));
    }
    return sign(builder, keys);
  }

  private X500Name issuer() {
    return X500Name.getInstance(certificate.getSubjectX500Principal().getEncoded());
  }

  /** Not a CA; issued by this CA (cryptogen gives leaves no subject key identifier). */
  private void extendLeaf(X509v3CertificateBuilder builder) {
    extend(builder, Extension.basicConstraints, true, new BasicConstraints(false));
    extend(
        builder, Extension.authorityKeyIdentifier, false, new AuthorityKeyIdentifier(subjectKeyId));
  }

  private static void extend(
      X509v3CertificateBuilder builder,
      ASN1ObjectIdentifier oid,
      boolean critical,
      ASN1Encodable value) {
    try {
      builder.addExtension(oid, critical, value);
    } catch (CertIOException e) {
      throw new UncheckedIOException("encoding extension " + oid + " in memory failed", e);
    }
  }

  private static GeneralNames alternativeNames(List<String> names) {
    // Go's x509 writes DNS names before IP addresses; keep that order.
    Stream<GeneralName> dns =
        names.stream()
            .filter(name -> !IPAddress.isValid(name))
            .map(name -> new GeneralName(GeneralName.dNSName, name));
    Stream<GeneralName> ips =
        names.stream()
            .filter(IPAddress::isValid)
            .map(name -> new GeneralName(GeneralName.iPAddress, name));
    return new GeneralNames(Stream.concat(dns, ips).toArray(GeneralName[]::new));
  }

  private static X500NameBuilder subject() {
    return new X500NameBuilder(GoNameStyle.INSTANCE)
        .addRDN(BCStyle.C, "US")
        .addRDN(BCStyle.ST, "California")
        .addRDN(BCStyle.L, "San Francisco");
  }

  private static X509v3CertificateBuilder template(
      X500Name issuer, X500Name subject, PublicKey key, Validity validity, SecureRandom random) {
    return new JcaX509v3CertificateBuilder(
        issuer,
        new BigInteger(128, random),
        Date.from(validity.notBefore()),
        Date.from(validity.notAfter()),
        subject,
        key);
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair issuerKeys) {
    try {
      return new JcaX509CertificateConverter()
          .getCertificate(builder.build(new LowSContentSigner(issuerKeys.getPrivate())));
    } catch (CertificateException e) {
      throw new IllegalStateException("a certificate just signed cannot be decoded", e);
    }
  }
}
