package io.rubinbft.orderer.msp;

import com.google.protobuf.ByteString;
import java.security.PublicKey;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A deserialized identity that its MSP has validated: the certificate chains to one of the MSP's
 * root CAs, is not revoked by a CRL in the config, and satisfies the MSP's OU rules. Whether it has
 * expired is a question of time, asked by the caller with {@link #isExpiredAt}.
 */
public final class Identity {

  private final String mspId;
  private final X509Certificate certificate;
  private final ByteString certificateDer;
  private final PublicKey publicKey;
  private final List<OuIdentifier> organizationalUnits;
  private final Optional<NodeRole> nodeRole;
  private final boolean admin;

  Identity(
      String mspId,
      X509Certificate certificate,
      PublicKey publicKey,
      List<OuIdentifier> organizationalUnits,
      Optional<NodeRole> nodeRole,
      boolean admin) {
    this.mspId = mspId;
    this.certificate = certificate;
    this.certificateDer = der(certificate);
    this.publicKey = publicKey;
    this.organizationalUnits = List.copyOf(organizationalUnits);
    this.nodeRole = nodeRole;
    this.admin = admin;
  }

  static ByteString der(X509Certificate certificate) {
    try {
      return ByteString.copyFrom(certificate.getEncoded());
    } catch (CertificateEncodingException e) {
      throw new IllegalStateException("a parsed certificate has no DER encoding", e);
    }
  }

  public String mspId() {
    return mspId;
  }

  public X509Certificate certificate() {
    return certificate;
  }

  /** The certificate's DER bytes. */
  public ByteString certificateDer() {
    return certificateDer;
  }

  /** The certificate's public key, imported into the orderer's crypto provider. */
  public PublicKey publicKey() {
    return publicKey;
  }

  public List<OuIdentifier> organizationalUnits() {
    return organizationalUnits;
  }

  /** The NodeOU role, present exactly when the MSP enables NodeOUs. */
  public Optional<NodeRole> nodeRole() {
    return nodeRole;
  }

  /** Listed among the MSP's admin certificates, or carrying the admin NodeOU. */
  public boolean isAdmin() {
    return admin;
  }

  public Instant notAfter() {
    return certificate.getNotAfter().toInstant();
  }

  /** Fabric's expiry rule: expired when {@code now} is not before NotAfter. */
  public boolean isExpiredAt(Instant now) {
    return !now.isBefore(notAfter());
  }

  /** Two identities are the same when MSP and certificate are (Fabric dedupes signers so). */
  @Override
  public boolean equals(Object other) {
    return other instanceof Identity that
        && mspId.equals(that.mspId)
        && certificateDer.equals(that.certificateDer);
  }

  @Override
  public int hashCode() {
    return 31 * mspId.hashCode() + certificateDer.hashCode();
  }

  @Override
  public String toString() {
    return mspId + ":" + certificate.getSubjectX500Principal().getName();
  }
}
