package io.rubinbft.orderer.tools.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.orderer.crypto.Pem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.bouncycastle.util.io.pem.PemReader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our cryptogen against Fabric's: the fixtures' crypto-config.yaml regenerated and compared file by
 * file with what Fabric's cryptogen wrote.
 */
class CryptoGeneratorTest {

  static final Instant NOW = Instant.parse("2026-11-21T05:23:00Z");
  static final OrgSpec ORDERER_ORG =
      new OrgSpec(
          "example.com",
          OrgKind.ORDERER,
          List.of("orderer1", "orderer2", "orderer3", "orderer4"),
          0);
  static final OrgSpec PEER_ORG =
      new OrgSpec("org1.example.com", OrgKind.PEER, List.of("peer0"), 1);

  @TempDir static Path out;

  @BeforeAll
  static void generate() {
    CryptoGenerator generator = new CryptoGenerator(new SecureRandom(), NOW);
    generator.generate(out, ORDERER_ORG);
    generator.generate(out, PEER_ORG);
  }

  @Test
  void writesExactlyCryptogensFileSet() throws IOException {
    assertThat(relativeFiles(out).keySet()).isEqualTo(relativeFiles(Fixtures.crypto()).keySet());
  }

  @Test
  void nodeOusConfigIsByteIdenticalToCryptogens() throws IOException {
    for (String path : relativeFiles(Fixtures.crypto()).keySet()) {
      if (path.endsWith("config.yaml")) {
        assertThat(Files.readString(out.resolve(path)))
            .as(path)
            .isEqualTo(Files.readString(Fixtures.crypto().resolve(path)));
      }
    }
  }

  @Test
  void everyCertificateHasCryptogensSubjectIssuerAndExtensions() throws IOException {
    int compared = 0;
    for (String path : relativeFiles(Fixtures.crypto()).keySet()) {
      if (path.endsWith(".pem") || path.endsWith(".crt")) {
        X509Certificate ours = certificate(out.resolve(path));
        X509Certificate fabrics = certificate(Fixtures.crypto().resolve(path));
        assertThat(CertificateShape.of(ours)).as(path).isEqualTo(CertificateShape.of(fabrics));
        compared++;
      }
    }
    assertThat(compared).isEqualTo(48);
  }

  @Test
  void certificatesChainToTheirCaWithLowSSignaturesAndTenYearValidity() throws Exception {
    for (String path : relativeFiles(out).keySet()) {
      if (path.endsWith(".pem") || path.endsWith(".crt")) {
        X509Certificate cert = certificate(out.resolve(path));
        X509Certificate issuer = issuerOf(path, cert);
        cert.verify(issuer.getPublicKey());
        assertThat(Signatures.isLowS(cert.getSignature())).as(path).isTrue();
        assertThat(
                Duration.between(cert.getNotBefore().toInstant(), cert.getNotAfter().toInstant()))
            .isEqualTo(Duration.ofDays(3650));
        assertThat(cert.getNotBefore().toInstant())
            .isEqualTo(Instant.parse("2026-11-21T05:18:00Z"));
      }
    }
  }

  @Test
  void privateKeysArePkcs8OwnerOnlyAndMatchTheirCertificates() throws Exception {
    List<Path> keys =
        files(out).filter(p -> p.endsWith("priv_sk") || p.toString().endsWith(".key")).toList();
    assertThat(keys).hasSize(20);
    for (Path key : keys) {
      assertThat(Files.getPosixFilePermissions(key))
          .as(key.toString())
          .isEqualTo(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE));
      X509Certificate cert = certificate(certificateFor(key));
      Signature signer = Signature.getInstance("SHA256withECDSA");
      signer.initSign(privateKey(key));
      signer.update(new byte[] {1, 2, 3});
      byte[] signature = signer.sign();
      Signature verifier = Signature.getInstance("SHA256withECDSA");
      verifier.initVerify(cert.getPublicKey());
      verifier.update(new byte[] {1, 2, 3});
      assertThat(verifier.verify(signature)).as(key.toString()).isTrue();
    }
  }

  @Test
  void privateKeysHaveCryptogensPkcs8Structure() throws IOException {
    byte[] fabrics =
        pemContent(Fixtures.crypto().resolve("ordererOrganizations/example.com/ca/priv_sk"));
    byte[] ours = pemContent(out.resolve("ordererOrganizations/example.com/ca/priv_sk"));
    // Same DER skeleton (curve named once, public key included); only the key bits differ.
    assertThat(ours).hasSameSizeAs(fabrics);
    assertThat(Arrays.copyOfRange(ours, 0, 36)).isEqualTo(Arrays.copyOfRange(fabrics, 0, 36));
  }

  @Test
  void anExistingOrganizationIsKeptAsItIs() throws IOException {
    Map<String, byte[]> before = relativeFiles(out);
    new CryptoGenerator(new SecureRandom(), NOW.plusSeconds(3600)).generate(out, ORDERER_ORG);
    Map<String, byte[]> after = relativeFiles(out);
    assertThat(after.keySet()).isEqualTo(before.keySet());
    before.forEach((path, bytes) -> assertThat(after.get(path)).as(path).isEqualTo(bytes));
  }

  /** The certificate whose public key belongs to the private key file. */
  private static Path certificateFor(Path key) throws IOException {
    Path dir = key.getParent();
    String name = key.getFileName().toString();
    if (name.endsWith(".key")) {
      return dir.resolve(name.replace(".key", ".crt"));
    }
    if (dir.getFileName().toString().equals("keystore")) {
      try (Stream<Path> certs = Files.list(dir.resolveSibling("signcerts"))) {
        return certs.findFirst().orElseThrow();
      }
    }
    try (Stream<Path> certs = Files.list(dir)) {
      return certs.filter(p -> p.toString().endsWith("-cert.pem")).findFirst().orElseThrow();
    }
  }

  private static X509Certificate issuerOf(String path, X509Certificate cert) throws IOException {
    Path orgDir = out.resolve(Path.of(path).subpath(0, 2));
    String domain = orgDir.getFileName().toString();
    Path ca = orgDir.resolve("ca").resolve(CryptoGenerator.caFileName(domain));
    Path tlsCa = orgDir.resolve("tlsca").resolve(CryptoGenerator.tlsCaFileName(domain));
    X509Certificate caCert = certificate(ca);
    return cert.getIssuerX500Principal().equals(caCert.getSubjectX500Principal())
        ? caCert
        : certificate(tlsCa);
  }

  static X509Certificate certificate(Path file) throws IOException {
    return Pem.certificates(Files.readAllBytes(file), file.toString()).getFirst();
  }

  private static PrivateKey privateKey(Path file) throws Exception {
    return KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(pemContent(file)));
  }

  private static byte[] pemContent(Path file) throws IOException {
    try (PemReader reader = new PemReader(Files.newBufferedReader(file))) {
      return reader.readPemObject().getContent();
    }
  }

  static Map<String, byte[]> relativeFiles(Path root) throws IOException {
    Map<String, byte[]> result = new TreeMap<>();
    for (Path file : files(root).toList()) {
      result.put(root.relativize(file).toString(), Files.readAllBytes(file));
    }
    return result;
  }

  private static Stream<Path> files(Path root) throws IOException {
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(Files::isRegularFile).toList().stream();
    }
  }
}
