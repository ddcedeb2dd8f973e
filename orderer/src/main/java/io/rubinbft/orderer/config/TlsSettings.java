package io.rubinbft.orderer.config;

import java.nio.file.Path;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * TLS for one listener.
 *
 * @param enabled whether the listener speaks TLS
 * @param certificate the server certificate chain (PEM)
 * @param privateKey the server key (PEM, PKCS#8 as cryptogen writes it)
 * @param rootCas CA certificates this node trusts for its own TLS (sent to clients as hints)
 * @param clientAuthRequired whether clients must present a certificate
 * @param clientRootCas the CAs client certificates must chain to
 */
public record TlsSettings(
    boolean enabled,
    @Nullable Path certificate,
    @Nullable Path privateKey,
    List<Path> rootCas,
    boolean clientAuthRequired,
    List<Path> clientRootCas) {

  public TlsSettings {
    rootCas = List.copyOf(rootCas);
    clientRootCas = List.copyOf(clientRootCas);
  }

  /** A listener without TLS (plaintext), as when its {@code TLS.Enabled} is false. */
  public static TlsSettings plaintext() {
    return new TlsSettings(false, null, null, List.of(), false, List.of());
  }
}
