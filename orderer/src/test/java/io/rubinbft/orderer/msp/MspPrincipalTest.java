package io.rubinbft.orderer.msp;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.crypto.Fixtures;
import io.rubinbft.orderer.crypto.Sha256;
import java.util.ArrayList;
import java.util.List;
import org.hyperledger.fabric.protos.common.MSPPrincipal;
import org.hyperledger.fabric.protos.common.MSPRole.MSPRoleType;
import org.hyperledger.fabric.protos.common.SignaturePolicyEnvelope;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MspPrincipalTest {

  private static final Identity USER1 =
      ChannelMspsTest.valid(
          ChannelMspsTest.genesisMsps()
              .deserialize(
                  ChannelMspsTest.fixtureIdentity(
                      "Org1MSP",
                      "peerOrganizations/org1.example.com",
                      "users",
                      "User1@org1.example.com")));

  @ParameterizedTest
  @CsvSource({
    "Org1MSP, MEMBER, true",
    "Org1MSP, CLIENT, true",
    "Org1MSP, ADMIN, false",
    "Org1MSP, PEER, false",
    "Org1MSP, ORDERER, false",
    "OrdererMSP, MEMBER, false",
    "OrdererMSP, CLIENT, false",
  })
  void rolePrincipals(String mspId, MSPRoleType role, boolean satisfied) {
    assertThat(new MspPrincipal.Role(mspId, role).isSatisfiedBy(USER1)).isEqualTo(satisfied);
  }

  @Test
  void identityPrincipalsOfBlockValidationMatchExactlyTheirConsenter() throws Exception {
    SignaturePolicyEnvelope blockValidation =
        SignaturePolicyEnvelope.parseFrom(
            Fixtures.genesisConfig()
                .getChannelGroup()
                .getGroupsOrThrow("Orderer")
                .getPoliciesOrThrow("BlockValidation")
                .getPolicy()
                .getValue());
    List<MspPrincipal> principals = new ArrayList<>();
    for (MSPPrincipal principal : blockValidation.getIdentitiesList()) {
      principals.add(MspPrincipal.of(principal));
    }
    ChannelMsps msps = ChannelMspsTest.genesisMsps();

    for (int n = 1; n <= 4; n++) {
      Identity orderer =
          ChannelMspsTest.valid(
              msps.deserialize(
                  ChannelMspsTest.fixtureIdentity(
                      "OrdererMSP",
                      "ordererOrganizations/example.com",
                      "orderers",
                      "orderer" + n + ".example.com")));
      int consenter = n;
      assertThat(principals)
          .as("orderer%d", consenter)
          .filteredOn(p -> p.isSatisfiedBy(orderer))
          .singleElement()
          .isEqualTo(principals.get(consenter - 1));
    }
    assertThat(principals).noneMatch(p -> p.isSatisfiedBy(USER1));
  }

  @Test
  void organizationUnitPrincipalsNeedTheCertifiers() throws Exception {
    ByteString org1Certifiers =
        ByteString.copyFrom(
            new Sha256(CryptoProvider.jdk()).hash(TestCa.org1().certificate().getEncoded()));

    assertThat(new MspPrincipal.Unit("Org1MSP", "client", org1Certifiers).isSatisfiedBy(USER1))
        .isTrue();
    assertThat(new MspPrincipal.Unit("Org1MSP", "client", ByteString.EMPTY).isSatisfiedBy(USER1))
        .isFalse();
    assertThat(new MspPrincipal.Unit("Org1MSP", "peer", org1Certifiers).isSatisfiedBy(USER1))
        .isFalse();
    assertThat(new MspPrincipal.Unit("OrdererMSP", "client", org1Certifiers).isSatisfiedBy(USER1))
        .isFalse();
  }
}
