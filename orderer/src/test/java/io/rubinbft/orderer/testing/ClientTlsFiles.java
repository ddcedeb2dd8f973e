package io.rubinbft.orderer.testing;

import com.google.protobuf.ByteString;
import io.rubinbft.orderer.crypto.Pem;
import io.rubinbft.orderer.tools.loadgen.OrdererChannels;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateEncodingException;
import java.util.Optional;

/**
 * A Broadcast/Deliver client's TLS files: the orderers' TLS CA it trusts and, for mutual TLS, the
 * certificate and key it presents, whose SHA-256 its Deliver requests carry as {@code
 * tls_cert_hash} (Fabric's binding check).
 */
public record ClientTlsFiles(Path ordererTlsCa, Optional<Path> certificate, Optional<Path> key) {

  /** Server-authenticated TLS only. */
  public static ClientTlsFiles serverOnly(Path ordererTlsCa) {
    return new ClientTlsFiles(ordererTlsCa, Optional.empty(), Optional.empty());
  }

  /** Mutual TLS with {@code tlsDir}'s {@code client.crt} and {@code client.key} (cryptogen's). */
  public static ClientTlsFiles mutual(Path ordererTlsCa, Path tlsDir) {
    return new ClientTlsFiles(
        ordererTlsCa,
        Optional.of(tlsDir.resolve("client.crt")),
        Optional.of(tlsDir.resolve("client.key")));
  }

  public OrdererChannels.ClientTls clientTls() {
    return new OrdererChannels.ClientTls(Optional.of(ordererTlsCa), certificate, key);
  }

  /** SHA-256 of the client certificate's DER, empty without one. */
  public ByteString certificateHash() {
    if (certificate.isEmpty()) {
      return ByteString.EMPTY;
    }
    try {
      byte[] der = Pem.certificates(certificate.get()).getFirst().getEncoded();
      return ByteString.copyFrom(MessageDigest.getInstance("SHA-256").digest(der));
    } catch (NoSuchAlgorithmException | CertificateEncodingException e) {
      throw new IllegalStateException("cannot hash " + certificate.get(), e);
    }
  }
}
