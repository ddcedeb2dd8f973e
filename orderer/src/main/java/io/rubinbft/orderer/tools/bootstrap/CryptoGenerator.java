package io.rubinbft.orderer.tools.bootstrap;

import io.rubinbft.orderer.crypto.EcKeys;
import io.rubinbft.orderer.crypto.Pem;
import io.rubinbft.orderer.files.FileTrees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyPair;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;

/**
 * Fabric's {@code cryptogen generate} for one organization, with our own code: a signing CA and a
 * TLS CA, the organization's verifying MSP with NodeOUs, and for every node, the admin and each
 * client user a local MSP (enrollment certificate with its NodeOU, PKCS#8 key) and TLS material, in
 * exactly cryptogen's folder layout.
 *
 * <p>An organization whose folder already exists is left as it is, so re-running on a directory
 * keeps its identities. A new organization is written under a staging folder and moved into place
 * in one step: an interrupted run never leaves a half-made organization that looks complete.
 */
public final class CryptoGenerator {

  private static final String CA_KEY_FILE = "priv_sk";

  private final SecureRandom random;
  private final Validity validity;

  /** Certificates valid from about {@code now} (cryptogen's rounding) for ten years. */
  public CryptoGenerator(SecureRandom random, Instant now) {
    this.random = random;
    this.validity = Validity.cryptogenStyle(now);
  }

  /** Writes the organization under {@code cryptoRoot} unless it is there already. */
  public OrgLayout generate(Path cryptoRoot, OrgSpec spec) {
    OrgLayout target = OrgLayout.of(cryptoRoot, spec);
    if (Files.isDirectory(target.orgDir())) {
      return target;
    }
    Path staging = target.orgDir().resolveSibling("." + spec.domain() + ".partial");
    FileTrees.delete(staging);
    OrgLayout staged = new OrgLayout(staging, spec.domain(), spec.kind());
    writeOrganization(staged, spec);
    try {
      Files.move(staged.orgDir(), target.orgDir(), StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot move " + staged.orgDir() + " into place", e);
    }
    FileTrees.delete(staging);
    return target;
  }

  private void writeOrganization(OrgLayout layout, OrgSpec spec) {
    String domain = spec.domain();
    CertificateAuthority ca = CertificateAuthority.create("ca." + domain, domain, validity, random);
    CertificateAuthority tlsCa =
        CertificateAuthority.create("tlsca." + domain, domain, validity, random);
    Cas cas = new Cas(ca, caFileName(domain), tlsCa, tlsCaFileName(domain));
    writeCa(layout.orgDir().resolve("ca"), cas.caFile(), ca);
    writeCa(layout.orgDir().resolve("tlsca"), cas.tlsCaFile(), tlsCa);
    writeVerifyingMsp(layout.mspDir(), cas);
    for (String host : spec.hostnames()) {
      String fqdn = host + "." + domain;
      writeIdentity(
          layout.nodeDir(host),
          cas,
          new Identity(
              fqdn, spec.kind().nodeOu(), "server", List.of(fqdn, host, "localhost", "127.0.0.1")));
    }
    writeIdentity(
        layout.adminDir(), cas, new Identity("Admin@" + domain, NodeOu.ADMIN, "client", List.of()));
    for (int n = 1; n <= spec.users(); n++) {
      writeIdentity(
          layout.userDir(n),
          cas,
          new Identity("User" + n + "@" + domain, NodeOu.CLIENT, "client", List.of()));
    }
  }

  /** One identity's names: its common name, NodeOU, TLS file stem and TLS alternative names. */
  private record Identity(String name, NodeOu ou, String tlsStem, List<String> alternativeNames) {}

  /** An organization's two CAs and their certificate file names. */
  private record Cas(
      CertificateAuthority ca, String caFile, CertificateAuthority tlsCa, String tlsCaFile) {}

  private void writeIdentity(Path dir, Cas cas, Identity identity) {
    Path msp = dir.resolve("msp");
    writeVerifyingMsp(msp, cas);
    KeyPair signing = EcKeys.generateCryptogen(random);
    CryptoFiles.writePrivateKey(
        msp.resolve("keystore").resolve("priv_sk"), EcKeys.cryptogenPkcs8(signing.getPrivate()));
    X509Certificate enrollment =
        cas.ca().issueEnrollment(identity.name(), identity.ou(), signing.getPublic());
    CryptoFiles.write(
        msp.resolve("signcerts").resolve(identity.name() + "-cert.pem"),
        Pem.encodeCertificate(enrollment));

    Path tls = dir.resolve("tls");
    KeyPair tlsKeys = EcKeys.generateCryptogen(random);
    X509Certificate tlsCert =
        cas.tlsCa().issueTls(identity.name(), identity.alternativeNames(), tlsKeys.getPublic());
    CryptoFiles.write(tls.resolve("ca.crt"), Pem.encodeCertificate(cas.tlsCa().certificate()));
    CryptoFiles.write(tls.resolve(identity.tlsStem() + ".crt"), Pem.encodeCertificate(tlsCert));
    CryptoFiles.writePrivateKey(
        tls.resolve(identity.tlsStem() + ".key"), EcKeys.cryptogenPkcs8(tlsKeys.getPrivate()));
  }

  /** cacerts, tlscacerts and the NodeOUs config.yaml; with NodeOUs there is no admincerts. */
  private static void writeVerifyingMsp(Path msp, Cas cas) {
    CryptoFiles.write(
        msp.resolve("cacerts").resolve(cas.caFile()),
        Pem.encodeCertificate(cas.ca().certificate()));
    CryptoFiles.write(
        msp.resolve("tlscacerts").resolve(cas.tlsCaFile()),
        Pem.encodeCertificate(cas.tlsCa().certificate()));
    CryptoFiles.write(
        msp.resolve("config.yaml"),
        NodeOusConfig.yaml("cacerts/" + cas.caFile()).getBytes(StandardCharsets.UTF_8));
  }

  private static void writeCa(Path dir, String certFile, CertificateAuthority ca) {
    CryptoFiles.write(dir.resolve(certFile), Pem.encodeCertificate(ca.certificate()));
    CryptoFiles.writePrivateKey(dir.resolve(CA_KEY_FILE), ca.privateKeyPkcs8());
  }

  static String caFileName(String domain) {
    return "ca." + domain + "-cert.pem";
  }

  static String tlsCaFileName(String domain) {
    return "tlsca." + domain + "-cert.pem";
  }
}
