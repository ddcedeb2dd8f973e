package io.rubinbft.orderer.onboarding;

import com.google.protobuf.ByteString;
import io.rubinbft.orderer.config.TlsSettings;
import io.rubinbft.orderer.crypto.Pem;
import io.rubinbft.orderer.crypto.Sha256;
import io.rubinbft.orderer.tls.ServerTls;
import java.util.Objects;
import javax.net.ssl.KeyManager;

/**
 * The TLS key pair this node presents as a client when it pulls blocks: its own TLS certificate, as
 * Fabric's orderers present theirs to each other.
 *
 * @param keys the key managers presenting the certificate chain and key
 * @param certificateHash SHA-256 of the certificate's DER, which Deliver requests carry in {@code
 *     tls_cert_hash} so a server with mutual TLS can bind the request to the connection
 */
public record NodeTls(KeyManager[] keys, ByteString certificateHash) {

  /**
   * The key pair of the node's gRPC listener.
   *
   * @throws IllegalArgumentException when TLS is off or its files cannot be used
   */
  public static NodeTls of(TlsSettings listener, Sha256 sha256) {
    byte[] certificate;
    try {
      // Called only when the node's TLS is on, and enabled TLS settings name the certificate.
      certificate =
          Pem.certificates(Objects.requireNonNull(listener.certificate())).getFirst().getEncoded();
    } catch (java.security.cert.CertificateEncodingException e) {
      throw new IllegalArgumentException(
          "cannot encode TLS certificate " + listener.certificate() + ": " + e.getMessage(), e);
    }
    return new NodeTls(
        ServerTls.keyManagers(listener), ByteString.copyFrom(sha256.hash(certificate)));
  }
}
