package io.rubinbft.orderer.testing;

import io.rubinbft.orderer.config.TlsSettings;
import io.rubinbft.testdata.FabricTestData;
import java.nio.file.Path;
import java.util.List;

/**
 * The orderer tests' view of the Fabric golden data (testdata/fabric, located by {@link
 * FabricTestData}): its orderer org and nodes.
 */
public final class FabricFixtures {

  private FabricFixtures() {}

  public static Path root() {
    return FabricTestData.root();
  }

  /** The fixture orderer org's folder: crypto/ordererOrganizations/example.com. */
  public static Path ordererOrg() {
    return root().resolve("crypto/ordererOrganizations/example.com");
  }

  /** Orderer node {@code n} (1 to 4) of the fixture network. */
  public static Path orderer(int n) {
    return ordererOrg().resolve("orderers/orderer" + n + ".example.com");
  }

  /**
   * Orderer {@code n}'s TLS listener settings: its server key pair, trusting its org's TLS CA, no
   * client authentication.
   */
  public static TlsSettings ordererServerTls(int n) {
    return ordererTls(n, false, List.of());
  }

  /**
   * Orderer {@code n}'s TLS listener settings: its server key pair, trusting its org's TLS CA,
   * checking client certificates against {@code clientRootCas} (and requiring one if {@code
   * clientAuthRequired}).
   */
  public static TlsSettings ordererTls(
      int n, boolean clientAuthRequired, List<Path> clientRootCas) {
    Path tls = orderer(n).resolve("tls");
    return new TlsSettings(
        true,
        tls.resolve("server.crt"),
        tls.resolve("server.key"),
        List.of(tls.resolve("ca.crt")),
        clientAuthRequired,
        clientRootCas);
  }
}
