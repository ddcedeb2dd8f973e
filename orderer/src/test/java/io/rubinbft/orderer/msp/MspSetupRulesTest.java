package io.rubinbft.orderer.msp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.rubinbft.orderer.crypto.CryptoProvider;
import java.security.cert.X509Certificate;
import java.util.List;
import org.hyperledger.fabric.protos.msp.FabricMSPConfig;
import org.hyperledger.fabric.protos.msp.FabricNodeOUs;
import org.hyperledger.fabric.protos.msp.FabricOUIdentifier;
import org.junit.jupiter.api.Test;

/**
 * Fabric's MSP setup rules (msp/mspimplsetup.go, setupV142) on configs Fabric refuses: each is
 * refused with Fabric's text, and the config it was derived from is accepted.
 */
class MspSetupRulesTest {

  private static final CryptoProvider PROVIDER = CryptoProvider.preferNative();
  private static final TestCa ROOT = TestCa.generate("ca.lab.example.com");
  private static final TestCa TLS_ROOT = TestCa.generate("tlsca.lab.example.com");

  private static ByteString pem(Object object) {
    return ByteString.copyFromUtf8(TestCa.pem(object));
  }

  private static FabricOUIdentifier ou(String name) {
    return FabricOUIdentifier.newBuilder().setOrganizationalUnitIdentifier(name).build();
  }

  /** An MSP as cryptogen writes one: NodeOUs client/peer/admin/orderer, no explicit admins. */
  private static FabricMSPConfig.Builder config() {
    return FabricMSPConfig.newBuilder()
        .setName("LabMSP")
        .addRootCerts(pem(ROOT.certificate()))
        .addTlsRootCerts(pem(TLS_ROOT.certificate()))
        .setFabricNodeOus(
            FabricNodeOUs.newBuilder()
                .setEnable(true)
                .setClientOuIdentifier(ou("client"))
                .setPeerOuIdentifier(ou("peer"))
                .setAdminOuIdentifier(ou("admin"))
                .setOrdererOuIdentifier(ou("orderer")));
  }

  private static FabricMsp read(FabricMSPConfig.Builder config) throws MspConfigException {
    return new FabricMspConfigReader(PROVIDER).read(config.build());
  }

  private static void assertRefused(FabricMSPConfig.Builder config, String message) {
    assertThatThrownBy(() -> read(config))
        .isInstanceOf(MspConfigException.class)
        .hasMessage(message);
  }

  @Test
  void theBaseConfigIsAccepted() throws MspConfigException {
    assertThat(read(config()).nodeOusEnabled()).isTrue();
  }

  @Test
  void aRootThatIsNotACaIsRefused() {
    X509Certificate leaf = ROOT.issue("not-a-ca", List.of("client")).certificate();

    assertRefused(
        config().clearRootCerts().addRootCerts(pem(leaf)),
        "CA Certificate did not have the CA attribute, (SN: "
            + leaf.getSerialNumber().toString(16)
            + ")");
  }

  @Test
  void aCaWithoutSubjectKeyIdentifierIsRefused() {
    X509Certificate noSki = TestCa.generate("ca.noski.example.com", false).certificate();

    assertRefused(
        config().addRootCerts(pem(noSki)),
        "CA Certificate problem with Subject Key Identifier extension, (SN: "
            + noSki.getSerialNumber().toString(16)
            + "): subjectKeyIdentifier not found in certificate");
  }

  @Test
  void anIntermediateThatChainsToNoRootIsRefused() {
    X509Certificate stray =
        TestCa.generate("ca.other.example.com").intermediate("ica.other").certificate();

    assertRefused(
        config().addIntermediateCerts(pem(stray)),
        "CA Certificate is not valid, (SN: "
            + stray.getSerialNumber()
            + "): could not obtain certification chain: the supplied identity is not valid: x509:"
            + " certificate signed by unknown authority");
  }

  @Test
  void aRevokedTlsIntermediateIsRefused() {
    TestCa tlsIntermediate = TLS_ROOT.intermediate("tlsica.lab.example.com");

    assertRefused(
        config()
            .addTlsIntermediateCerts(pem(tlsIntermediate.certificate()))
            .addRevocationList(pem(TLS_ROOT.revoke(tlsIntermediate.certificate()))),
        "CA Certificate is not valid, (SN: "
            + tlsIntermediate.certificate().getSerialNumber()
            + "): The certificate has been revoked");
  }

  @Test
  void withoutAnAdminOuAdminsMustBeListed() throws MspConfigException {
    FabricMSPConfig.Builder noAdminOu =
        config()
            .setFabricNodeOus(
                config().getFabricNodeOus().toBuilder().clearAdminOuIdentifier().build());

    assertRefused(
        noAdminOu, "administrators must be declared when no admin ou classification is set");
    X509Certificate admin = ROOT.issue("Admin", List.of("client")).certificate();
    assertThat(read(noAdminOu.addAdmins(pem(admin))).nodeOusEnabled()).isTrue();
  }

  @Test
  void withNodeOusAListedAdminMustBeAClientOrAnAdmin() throws MspConfigException {
    X509Certificate peer = ROOT.issue("peer0", List.of("peer")).certificate();

    assertRefused(
        config().addAdmins(pem(peer)),
        "admin 0 is invalid [The identity does not contain OU [CLIENT], MSP: [LabMSP],"
            + "The identity does not contain OU [ADMIN], MSP: [LabMSP]]");
    X509Certificate admin = ROOT.issue("Admin", List.of("admin")).certificate();
    assertThat(read(config().addAdmins(pem(admin)))).isNotNull();
  }

  @Test
  void withoutNodeOusAListedAdminMustBeAValidIdentity() throws MspConfigException {
    X509Certificate stranger =
        TestCa.generate("ca.other.example.com").issue("Admin", List.of()).certificate();

    assertRefused(
        config().clearFabricNodeOus().addAdmins(pem(stranger)),
        "admin 0 is invalid: could not obtain certification chain: the supplied identity is not"
            + " valid: x509: certificate signed by unknown authority");
    X509Certificate admin = ROOT.issue("Admin", List.of()).certificate();
    assertThat(read(config().clearFabricNodeOus().addAdmins(pem(admin))).nodeOusEnabled())
        .isFalse();
  }

  @Test
  void nodeOusEnabledWithNoneNamedAreOff() throws MspConfigException {
    FabricMSPConfig.Builder noneNamed =
        config()
            .setFabricNodeOus(FabricNodeOUs.newBuilder().setEnable(true))
            .addAdmins(pem(ROOT.issue("Admin", List.of()).certificate()));

    assertThat(read(noneNamed).nodeOusEnabled()).isFalse();
  }
}
