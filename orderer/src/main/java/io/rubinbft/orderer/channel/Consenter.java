package io.rubinbft.orderer.channel;

import com.google.protobuf.ByteString;
import java.net.InetSocketAddress;
import java.security.cert.X509Certificate;
import java.util.Arrays;

/**
 * One entry of the BFT ConsenterMapping ({@code /Channel/Orderer/Orderers}): a PBFT replica.
 *
 * @param id the consenter id; block signatures name their signer by it (unsigned 32 bit in Fabric)
 * @param host cluster host, as written in the mapping
 * @param port cluster port, as written in the mapping
 * @param mspId the MSP the identity belongs to
 * @param identity the enrollment certificate as the config holds it (PEM bytes); peers verify block
 *     signatures against {@code SerializedIdentity{mspId, identity}}
 * @param identityCertificate {@code identity} parsed
 * @param clientTlsCertificate the TLS certificate the node uses as a client
 * @param serverTlsCertificate the TLS certificate the node serves with
 */
public record Consenter(
    long id,
    String host,
    int port,
    String mspId,
    ByteString identity,
    X509Certificate identityCertificate,
    X509Certificate clientTlsCertificate,
    X509Certificate serverTlsCertificate) {

  /**
   * True when {@code certificate} is this consenter's identity or one of its TLS certificates, or a
   * certificate of its identity's key.
   */
  boolean hasCertificate(X509Certificate certificate) {
    return identityCertificate.equals(certificate)
        || serverTlsCertificate.equals(certificate)
        || clientTlsCertificate.equals(certificate)
        || Arrays.equals(
            identityCertificate.getPublicKey().getEncoded(),
            certificate.getPublicKey().getEncoded());
  }

  /** True when {@code certificate} is one of this consenter's TLS certificates (cluster links). */
  public boolean hasTlsCertificate(X509Certificate certificate) {
    return clientTlsCertificate.equals(certificate) || serverTlsCertificate.equals(certificate);
  }

  /**
   * True when {@code address} is this consenter's cluster endpoint as the mapping writes it: its
   * port, and its host as written (the name dialled, compared without a lookup).
   */
  public boolean isAt(InetSocketAddress address) {
    return port == address.getPort() && host.equalsIgnoreCase(address.getHostString());
  }

  /** For messages: "3 (orderer3.example.com)". */
  String describe() {
    return id + " (" + identityCertificate.getSubjectX500Principal().getName() + ")";
  }
}
