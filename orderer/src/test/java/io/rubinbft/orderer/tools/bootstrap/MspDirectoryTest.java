package io.rubinbft.orderer.tools.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hyperledger.fabric.protos.msp.FabricMSPConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MspDirectoryTest {

  @TempDir Path dir;

  @Test
  void readsCryptogensOrdererMspAsConfigtxgenDoes() throws IOException {
    Path msp = Fixtures.crypto().resolve("ordererOrganizations/example.com/msp");
    FabricMSPConfig config = MspDirectory.fabricConfig(msp, "OrdererMSP");
    byte[] ca = Files.readAllBytes(msp.resolve("cacerts/ca.example.com-cert.pem"));
    assertThat(config.getName()).isEqualTo("OrdererMSP");
    assertThat(config.getRootCertsList())
        .singleElement()
        .satisfies(c -> assertThat(c.toByteArray()).isEqualTo(ca));
    assertThat(config.getTlsRootCertsList()).hasSize(1);
    assertThat(config.getAdminsList()).isEmpty();
    assertThat(config.getFabricNodeOus().getEnable()).isTrue();
    assertThat(config.getFabricNodeOus().getOrdererOuIdentifier().getOrganizationalUnitIdentifier())
        .isEqualTo("orderer");
    assertThat(config.getFabricNodeOus().getAdminOuIdentifier().getCertificate().toByteArray())
        .isEqualTo(ca);
    assertThat(config.getCryptoConfig().getIdentityIdentifierHashFunction()).isEqualTo("SHA256");
  }

  @Test
  void skipsFilesWithoutPemLikeFabric() throws IOException {
    Path cacerts = Files.createDirectories(dir.resolve("cacerts"));
    Files.copy(
        Fixtures.crypto()
            .resolve("ordererOrganizations/example.com/msp/cacerts/ca.example.com-cert.pem"),
        cacerts.resolve("ca.pem"));
    Files.writeString(cacerts.resolve("README"), "not a certificate");
    assertThat(MspDirectory.fabricConfig(dir, "X").getRootCertsCount()).isEqualTo(1);
    assertThat(MspDirectory.fabricConfig(dir, "X").hasFabricNodeOus()).isFalse();
  }

  @Test
  void anMspWithoutCaCertificatesIsRejectedWithItsPath() {
    assertThatThrownBy(() -> MspDirectory.fabricConfig(dir, "X"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("MSP folder " + dir + " has no CA certificate in cacerts/");
  }
}
