package io.rubinbft.orderer.tools.bootstrap;

import io.rubinbft.orderer.crypto.Pem;
import java.math.BigInteger;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.CertificateEncodingException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Date;
import java.util.Set;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;

/**
 * Certificate renewal as an operator gets it from the organization's CA: the same subject, key and
 * extensions, a new serial number and validity start, signed by the CA our bootstrap wrote into the
 * organization's {@code ca} folder.
 */
public final class Renewals {

  private static final SecureRandom RANDOM = new SecureRandom();

  private Renewals() {}

  /**
   * The renewed certificate of {@code old} as PEM.
   *
   * @param orgDir the organization's folder (holding {@code ca/priv_sk})
   */
  public static byte[] renewedPem(Path orgDir, X509Certificate old) {
    try {
      PrivateKey caKey = Pem.privateKey(orgDir.resolve("ca/priv_sk"));
      JcaX509v3CertificateBuilder builder =
          new JcaX509v3CertificateBuilder(
              X500Name.getInstance(old.getIssuerX500Principal().getEncoded()),
              new BigInteger(128, RANDOM),
              Date.from(old.getNotBefore().toInstant().plusSeconds(1)),
              old.getNotAfter(),
              X500Name.getInstance(old.getSubjectX500Principal().getEncoded()),
              old.getPublicKey());
      copy(builder, old, old.getCriticalExtensionOIDs(), true);
      copy(builder, old, old.getNonCriticalExtensionOIDs(), false);
      X509Certificate renewed =
          new JcaX509CertificateConverter()
              .getCertificate(builder.build(new LowSContentSigner(caKey)));
      return Pem.encodeCertificate(renewed);
    } catch (CertificateException e) {
      throw new IllegalStateException("a renewed certificate does not decode", e);
    }
  }

  /**
   * The folder of the organization whose node has its local MSP at {@code mspDir}, in cryptogen's
   * layout: {@code <org>/orderers/<node>/msp}.
   */
  public static Path organizationOf(Path mspDir) {
    return mspDir.getParent().getParent().getParent();
  }

  private static void copy(
      JcaX509v3CertificateBuilder builder,
      X509Certificate old,
      Set<String> oids,
      boolean critical) {
    for (String oid : oids) {
      try {
        builder.copyAndAddExtension(new ASN1ObjectIdentifier(oid), critical, old);
      } catch (CertificateEncodingException e) {
        throw new IllegalStateException("extension " + oid + " of " + old + " cannot be copied", e);
      }
    }
  }
}
