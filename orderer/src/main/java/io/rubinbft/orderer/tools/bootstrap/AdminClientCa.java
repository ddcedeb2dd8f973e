package io.rubinbft.orderer.tools.bootstrap;

import io.rubinbft.orderer.crypto.EcKeys;
import io.rubinbft.orderer.crypto.Pem;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyPair;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;

/**
 * The local network's admin client CA: a CA of its own that issues only the orderer admin's TLS
 * client certificate, so the admin API (mutual TLS, {@code Admin.TLS.ClientRootCAs}) trusts no
 * certificate of the orderer organization's TLS CA. Were it that CA, every consenter's TLS
 * certificate (which every other consenter holds) would be an admin of every node: DELETE wipes a
 * channel. Written beside the organizations, once; a later run keeps it.
 *
 * <pre>
 * cryptoRoot/adminclientca/
 *   ca.crt                      the CA certificate (the admin API's ClientRootCAs)
 *   priv_sk                     its key
 *   client.crt, client.key      the orderer admin's TLS client certificate and key
 * </pre>
 *
 * @param caCert the CA certificate file
 * @param clientCert the admin's TLS client certificate file
 * @param clientKey the admin's TLS client key file (PKCS#8)
 */
public record AdminClientCa(Path caCert, Path clientCert, Path clientKey) {

  private static final String FOLDER = "adminclientca";

  /** The files under {@code cryptoRoot}, made first if they are not there. */
  static AdminClientCa ensure(Path cryptoRoot, String adminName, SecureRandom random, Instant now) {
    Path dir = cryptoRoot.resolve(FOLDER);
    AdminClientCa files = at(dir);
    if (Files.isDirectory(dir)) {
      return files;
    }
    Path staging = cryptoRoot.resolve("." + FOLDER + ".partial");
    Validity validity = Validity.cryptogenStyle(now);
    CertificateAuthority ca =
        CertificateAuthority.create("adminclientca.local", "local", validity, random);
    CryptoFiles.write(staging.resolve("ca.crt"), Pem.encodeCertificate(ca.certificate()));
    CryptoFiles.writePrivateKey(staging.resolve("priv_sk"), ca.privateKeyPkcs8());
    KeyPair keys = EcKeys.generateCryptogen(random);
    X509Certificate client = ca.issueTls(adminName, List.of(), keys.getPublic());
    CryptoFiles.write(staging.resolve("client.crt"), Pem.encodeCertificate(client));
    CryptoFiles.writePrivateKey(
        staging.resolve("client.key"), EcKeys.cryptogenPkcs8(keys.getPrivate()));
    try {
      Files.move(staging, dir, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot move " + staging + " into place", e);
    }
    return files;
  }

  private static AdminClientCa at(Path dir) {
    return new AdminClientCa(
        dir.resolve("ca.crt"), dir.resolve("client.crt"), dir.resolve("client.key"));
  }
}
