package io.rubinbft.orderer.msp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.crypto.Fixtures;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.Config;
import org.hyperledger.fabric.protos.msp.FabricMSPConfig;
import org.hyperledger.fabric.protos.msp.MSPConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The genesis block's MSPs, and Fabric's identity rules checked on cryptogen's and our certs. */
class ChannelMspsTest {

  private static final CryptoProvider PROVIDER = CryptoProvider.preferNative();

  static ChannelMsps genesisMsps() {
    try {
      return ChannelMsps.fromConfig(
          Fixtures.genesisConfig(), PROVIDER, ChannelMsps.DEFAULT_CACHE_CAPACITY);
    } catch (MspConfigException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The FabricMSPConfig of /Channel/Application/Org1 in the genesis block. */
  static FabricMSPConfig org1Config() throws InvalidProtocolBufferException {
    Config config = Fixtures.genesisConfig();
    ByteString value =
        config
            .getChannelGroup()
            .getGroupsOrThrow("Application")
            .getGroupsOrThrow("Org1")
            .getValuesOrThrow("MSP")
            .getValue();
    return FabricMSPConfig.parseFrom(MSPConfig.parseFrom(value).getConfig());
  }

  static ByteString fixtureIdentity(String mspId, String org, String kind, String name) {
    return TestCa.serialized(mspId, TestCa.parse(Fixtures.signCert(org, kind, name)));
  }

  /** Org1's User1 certificate, serialized under {@code mspId} (its own MSP is Org1MSP). */
  private static ByteString org1User1As(String mspId) {
    return fixtureIdentity(
        mspId, "peerOrganizations/org1.example.com", "users", "User1@org1.example.com");
  }

  static Identity valid(IdentityResult result) {
    assertThat(result).isInstanceOf(IdentityResult.Valid.class);
    return ((IdentityResult.Valid) result).identity();
  }

  static String invalid(IdentityResult result) {
    assertThat(result).isInstanceOf(IdentityResult.Invalid.class);
    return ((IdentityResult.Invalid) result).reason();
  }

  @Test
  void buildsEveryOrgsMspFromTheGenesisConfig() {
    ChannelMsps msps = genesisMsps();

    assertThat(msps.all())
        .extracting(FabricMsp::name)
        .containsExactlyInAnyOrder("OrdererMSP", "Org1MSP");
    for (FabricMsp msp : msps.all()) {
      assertThat(msp.nodeOusEnabled()).isTrue();
      assertThat(msp.tlsRootCertificates()).hasSize(1);
    }
    assertThat(
            msps.msp("OrdererMSP")
                .orElseThrow()
                .tlsRootCertificates()
                .get(0)
                .getSubjectX500Principal()
                .getName())
        .contains("CN=tlsca.example.com");
  }

  @Test
  void collectsEveryOrgsTlsCas() {
    assertThat(genesisMsps().tlsCaCertificates())
        .extracting(c -> c.getSubjectX500Principal().getName())
        .hasSize(2)
        .anyMatch(name -> name.contains("CN=tlsca.example.com"))
        .anyMatch(name -> name.contains("CN=tlsca.org1.example.com"));
  }

  @ParameterizedTest
  @CsvSource({
    "Org1MSP, peerOrganizations/org1.example.com, users, User1@org1.example.com, CLIENT, false",
    "Org1MSP, peerOrganizations/org1.example.com, users, Admin@org1.example.com, ADMIN, true",
    "Org1MSP, peerOrganizations/org1.example.com, peers, peer0.org1.example.com, PEER, false",
    "OrdererMSP, ordererOrganizations/example.com, orderers, orderer1.example.com, ORDERER, false",
    "OrdererMSP, ordererOrganizations/example.com, users, Admin@example.com, ADMIN, true",
  })
  void classifiesCryptogensIdentitiesByNodeOu(
      String mspId, String org, String kind, String name, NodeRole role, boolean admin) {
    Identity identity = valid(genesisMsps().deserialize(fixtureIdentity(mspId, org, kind, name)));

    assertThat(identity.mspId()).isEqualTo(mspId);
    assertThat(identity.nodeRole()).contains(role);
    assertThat(identity.isAdmin()).isEqualTo(admin);
    assertThat(identity.isExpiredAt(Instant.now())).isFalse();
  }

  @Test
  void rejectsAnMspTheChannelDoesNotDefine() {
    assertThat(invalid(genesisMsps().deserialize(org1User1As("NoSuchMSP"))))
        .isEqualTo("MSP NoSuchMSP is not defined on channel");
  }

  @Test
  void rejectsACertificateClaimedForAnotherOrg() {
    assertThat(invalid(genesisMsps().deserialize(org1User1As("OrdererMSP"))))
        .startsWith("could not obtain certification chain");
  }

  @Test
  void rejectsAnIdentityFromAnUnknownCa() {
    TestCa.Issued stranger =
        TestCa.generate("ca.evil.example.com").issue("mallory", List.of("client"));

    assertThat(
            invalid(
                genesisMsps().deserialize(TestCa.serialized("Org1MSP", stranger.certificate()))))
        .startsWith("could not obtain certification chain");
  }

  @Test
  void rejectsACaCertificateAsAnIdentity() {
    X509Certificate ca = TestCa.org1().certificate();

    assertThat(invalid(genesisMsps().deserialize(TestCa.serialized("Org1MSP", ca))))
        .contains("Certificate Authority equals true cannot be used as an identity");
  }

  @Test
  void rejectsBytesThatAreNoIdentity() {
    ChannelMsps msps = genesisMsps();

    assertThat(
            invalid(msps.deserialize(ByteString.copyFromUtf8("not a proto at all \u0001\u0002"))))
        .isNotEmpty();
    assertThat(invalid(msps.deserialize(ByteString.EMPTY)))
        .isEqualTo("MSP  is not defined on channel");
  }

  @Test
  void enforcesExactlyOneNodeOu() {
    TestCa org1 = TestCa.org1();
    ChannelMsps msps = genesisMsps();

    assertThat(
            invalid(
                msps.deserialize(
                    TestCa.serialized("Org1MSP", org1.issue("nobody", List.of()).certificate()))))
        .contains("does not have an OU that resolves to client, peer, orderer, or admin role");
    assertThat(
            invalid(
                msps.deserialize(
                    TestCa.serialized(
                        "Org1MSP", org1.issue("both", List.of("client", "peer")).certificate()))))
        .contains("not a combination of them");
    assertThat(
            valid(
                    msps.deserialize(
                        TestCa.serialized(
                            "Org1MSP",
                            org1.issue("dept", List.of("sales", "client")).certificate())))
                .nodeRole())
        .contains(NodeRole.CLIENT);
  }

  @Test
  void keepsAnExpiredCertificateValidButReportsItsExpiry() {
    Instant now = Instant.now();
    TestCa.Issued old =
        TestCa.org1()
            .issue("old", List.of("client"), now.minusSeconds(7200), now.minusSeconds(3600));

    Identity identity =
        valid(genesisMsps().deserialize(TestCa.serialized("Org1MSP", old.certificate())));

    assertThat(identity.isExpiredAt(now)).isTrue();
    assertThat(identity.isExpiredAt(now.minusSeconds(5400))).isFalse();
  }

  @Test
  void rejectsACertificateRevokedByACrlInTheConfig() throws Exception {
    TestCa org1 = TestCa.org1();
    TestCa.Issued revoked = org1.issue("revoked", List.of("client"));
    TestCa.Issued kept = org1.issue("kept", List.of("client"));
    FabricMSPConfig withCrl =
        org1Config().toBuilder()
            .addRevocationList(
                ByteString.copyFromUtf8(TestCa.pem(org1.revoke(revoked.certificate()))))
            .build();
    ChannelMsps msps =
        new ChannelMsps(List.of(new FabricMspConfigReader(PROVIDER).read(withCrl)), 16);

    assertThat(invalid(msps.deserialize(TestCa.serialized("Org1MSP", revoked.certificate()))))
        .endsWith("The certificate has been revoked");
    assertThat(valid(msps.deserialize(TestCa.serialized("Org1MSP", kept.certificate()))).nodeRole())
        .contains(NodeRole.CLIENT);
  }

  @Test
  void treatsExplicitAdminCertificatesAsAdmins() throws Exception {
    TestCa.Issued client = TestCa.org1().issue("boss", List.of("client"));
    FabricMSPConfig withAdmin =
        org1Config().toBuilder()
            .addAdmins(ByteString.copyFromUtf8(TestCa.pem(client.certificate())))
            .build();
    ChannelMsps msps =
        new ChannelMsps(List.of(new FabricMspConfigReader(PROVIDER).read(withAdmin)), 16);

    Identity identity = valid(msps.deserialize(TestCa.serialized("Org1MSP", client.certificate())));

    assertThat(identity.isAdmin()).isTrue();
    assertThat(identity.nodeRole()).contains(NodeRole.CLIENT);
  }

  @Test
  void rejectsAConfigWithoutRootCertificates() throws Exception {
    FabricMSPConfig noRoots =
        org1Config().toBuilder().clearRootCerts().clearFabricNodeOus().build();

    assertThatThrownBy(() -> new FabricMspConfigReader(PROVIDER).read(noRoots))
        .isInstanceOf(MspConfigException.class)
        .hasMessage("MSP Org1MSP: expected at least one CA certificate");
  }

  @Test
  void servesARepeatedIdentityFromTheCache() {
    ChannelMsps msps = genesisMsps();
    ByteString user = org1User1As("Org1MSP");

    Identity first = valid(msps.deserialize(user));
    Identity second = valid(msps.deserialize(user));

    assertThat(second).isSameAs(first);
    assertThat(Optional.of(first.publicKey().getAlgorithm())).contains("EC");
  }
}
