package io.rubinbft.orderer.msp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.crypto.Sha256;
import java.security.cert.CertificateEncodingException;
import java.util.List;
import org.hyperledger.fabric.protos.msp.FabricMSPConfig;
import org.hyperledger.fabric.protos.msp.FabricNodeOUs;
import org.hyperledger.fabric.protos.msp.FabricOUIdentifier;
import org.junit.jupiter.api.Test;

/**
 * An MSP with a root and two intermediate CAs, NodeOUs pinned to different intermediates: chains
 * through the intermediates, certifiers identifiers over [intermediate, root], identities issued by
 * the root refused once it certified intermediates, revocation as Fabric's MSP applies it.
 */
class IntermediateCaTest {

  private static final CryptoProvider PROVIDER = CryptoProvider.preferNative();
  private static final TestCa ROOT = TestCa.generate("ca.lab.example.com");
  private static final TestCa INTERMEDIATE = ROOT.intermediate("ica.lab.example.com");
  private static final TestCa PEER_INTERMEDIATE = ROOT.intermediate("ica-peers.lab.example.com");

  private static ByteString pem(Object object) {
    return ByteString.copyFromUtf8(TestCa.pem(object));
  }

  private static FabricMSPConfig.Builder config() {
    return FabricMSPConfig.newBuilder()
        .setName("LabMSP")
        .addRootCerts(pem(ROOT.certificate()))
        .addIntermediateCerts(pem(INTERMEDIATE.certificate()))
        .addIntermediateCerts(pem(PEER_INTERMEDIATE.certificate()))
        .setFabricNodeOus(
            FabricNodeOUs.newBuilder()
                .setEnable(true)
                .setClientOuIdentifier(
                    FabricOUIdentifier.newBuilder()
                        .setOrganizationalUnitIdentifier("client")
                        .setCertificate(pem(INTERMEDIATE.certificate())))
                .setPeerOuIdentifier(
                    FabricOUIdentifier.newBuilder()
                        .setOrganizationalUnitIdentifier("peer")
                        .setCertificate(pem(PEER_INTERMEDIATE.certificate())))
                .setAdminOuIdentifier(
                    FabricOUIdentifier.newBuilder().setOrganizationalUnitIdentifier("admin")));
  }

  private static IdentityResult deserialize(FabricMSPConfig config, TestCa.Issued issued)
      throws MspConfigException {
    ChannelMsps msps =
        new ChannelMsps(List.of(new FabricMspConfigReader(PROVIDER).read(config)), 16);
    return msps.deserialize(TestCa.serialized("LabMSP", issued.certificate()));
  }

  @Test
  void chainsThroughTheIntermediateAndPinsNodeOusToTheirCa()
      throws MspConfigException, CertificateEncodingException {
    Identity client =
        ChannelMspsTest.valid(
            deserialize(config().build(), INTERMEDIATE.issue("alice", List.of("client"))));
    Identity peer =
        ChannelMspsTest.valid(
            deserialize(config().build(), PEER_INTERMEDIATE.issue("peer0", List.of("peer"))));

    assertThat(client.nodeRole()).contains(NodeRole.CLIENT);
    assertThat(peer.nodeRole()).contains(NodeRole.PEER);
    ByteString intermediateChain =
        ByteString.copyFrom(
            new Sha256(PROVIDER)
                .hash(INTERMEDIATE.certificate().getEncoded(), ROOT.certificate().getEncoded()));
    assertThat(client.organizationalUnits())
        .containsExactly(new OuIdentifier("client", intermediateChain));
    assertThat(new MspPrincipal.Unit("LabMSP", "client", intermediateChain).isSatisfiedBy(client))
        .isTrue();
    assertThat(
            ChannelMspsTest.invalid(
                deserialize(config().build(), PEER_INTERMEDIATE.issue("bob", List.of("client")))))
        .contains("does not have an OU that resolves to client, peer, orderer, or admin role");
  }

  @Test
  void aRootThatCertifiedIntermediatesIssuesNoIdentity() throws MspConfigException {
    // Fabric's getValidationChain: the issuer must be a leaf of the certification tree.
    assertThat(
            ChannelMspsTest.invalid(
                deserialize(config().build(), ROOT.issue("eve", List.of("client")))))
        .isEqualTo(
            "could not obtain certification chain: invalid validation chain. Parent certificate"
                + " should be a leaf of the certification tree");
  }

  @Test
  void anMspWhoseIntermediateItsOwnCrlRevokesIsRefused() {
    // Issue 19: Fabric's orderers refuse such a config update; its peers cannot commit it.
    FabricMSPConfig revoked =
        config().addRevocationList(pem(ROOT.revoke(INTERMEDIATE.certificate()))).build();

    assertThatThrownBy(() -> new FabricMspConfigReader(PROVIDER).read(revoked))
        .isInstanceOf(MspConfigException.class)
        .hasMessage(
            "CA Certificate is not valid, (SN: "
                + INTERMEDIATE.certificate().getSerialNumber()
                + "): The certificate has been revoked");
  }

  @Test
  void aLeafRevokedByItsIssuersCrlIsInvalid() throws MspConfigException {
    TestCa.Issued carol = INTERMEDIATE.issue("carol", List.of("client"));
    FabricMSPConfig revoked =
        config().addRevocationList(pem(INTERMEDIATE.revoke(carol.certificate()))).build();

    assertThat(ChannelMspsTest.invalid(deserialize(revoked, carol)))
        .isEqualTo(
            "could not validate identity against certification chain: The certificate has been"
                + " revoked");
    assertThat(
            ChannelMspsTest.valid(
                deserialize(revoked, INTERMEDIATE.issue("dave", List.of("client")))))
        .isNotNull();
  }

  @Test
  void refusesAnOuCertificateThatIsNotOneOfTheMspsCas() {
    TestCa other = TestCa.generate("ca.other.example.com");
    FabricMSPConfig config =
        config()
            .addOrganizationalUnitIdentifiers(
                FabricOUIdentifier.newBuilder()
                    .setOrganizationalUnitIdentifier("sales")
                    .setCertificate(pem(other.certificate())))
            .build();

    assertThatThrownBy(() -> new FabricMspConfigReader(PROVIDER).read(config))
        .isInstanceOf(MspConfigException.class)
        .hasMessageContaining("Failed adding OU");
  }
}
