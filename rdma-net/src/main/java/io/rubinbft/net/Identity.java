package io.rubinbft.net;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Objects;

/**
 * This replica's identity on the network: its X.509 certificate and the private key of that
 * certificate. Each side signs its handshake with the key; the peer checks the certificate through
 * its {@link PeerAuthenticator}.
 */
public record Identity(X509Certificate certificate, PrivateKey privateKey) {

  public Identity {
    Objects.requireNonNull(certificate, "certificate");
    Objects.requireNonNull(privateKey, "privateKey");
    String certificateAlgorithm = certificate.getPublicKey().getAlgorithm();
    if (!certificateAlgorithm.equals(privateKey.getAlgorithm())) {
      throw new IllegalArgumentException(
          "the private key is "
              + privateKey.getAlgorithm()
              + " but the certificate's key is "
              + certificateAlgorithm);
    }
  }
}
