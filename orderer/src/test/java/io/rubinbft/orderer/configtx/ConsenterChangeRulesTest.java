package io.rubinbft.orderer.configtx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.channel.ConfigBlockReader;
import io.rubinbft.orderer.testing.ConsenterUpdates;
import io.rubinbft.orderer.testing.FabricFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.hyperledger.fabric.protos.common.ConfigEnvelope;
import org.hyperledger.fabric.protos.common.Consenter;
import org.hyperledger.fabric.protos.common.Status;
import org.junit.jupiter.api.Test;

/**
 * Consenter set changes through config updates signed by the fixture's orderer admin: one consenter
 * added or removed per update, certificates renewed in place, and the precise refusals.
 */
class ConsenterChangeRulesTest {

  private static final ChannelConfig GENESIS = FixtureConfigs.config(0);
  private static final String PREFIX =
      "error applying config update to existing channel 'fixture': ";

  private static ConfigEnvelope propose(UnaryOperator<List<Consenter>> change)
      throws ConfigUpdateException {
    return FixtureConfigs.processor(GENESIS)
        .propose(
            SignedUpdates.signed(
                ConsenterUpdates.update("fixture", GENESIS.config(), change),
                List.of(SignedUpdates.ORDERER_ADMIN)));
  }

  private static ChannelConfig proposed(UnaryOperator<List<Consenter>> change) throws Exception {
    return ConfigBlockReader.readConfig("fixture", 1, propose(change).getConfig());
  }

  private static void assertRefused(UnaryOperator<List<Consenter>> change, String message) {
    assertThatThrownBy(() -> propose(change))
        .isInstanceOfSatisfying(
            ConfigUpdateException.class,
            e -> {
              assertThat(e.status()).isEqualTo(Status.BAD_REQUEST);
              assertThat(e.getMessage()).isEqualTo(PREFIX + message);
            });
  }

  private static UnaryOperator<List<Consenter>> edit(int index, UnaryOperator<Consenter> edit) {
    return consenters -> {
      List<Consenter> next = new ArrayList<>(consenters);
      next.set(index, edit.apply(next.get(index)));
      return next;
    };
  }

  private static UnaryOperator<List<Consenter>> without(int... indices) {
    return consenters -> {
      List<Consenter> next = new ArrayList<>(consenters);
      for (int i = indices.length - 1; i >= 0; i--) {
        next.remove(indices[i]);
      }
      return next;
    };
  }

  /** A fifth consenter with the orderer admin's TLS client certificate as both TLS certificates. */
  private static Consenter fifth(String mspId, ByteString identity) throws IOException {
    ByteString tls =
        ByteString.copyFrom(
            Files.readAllBytes(
                FabricFixtures.ordererOrg().resolve("users/Admin@example.com/tls/client.crt")));
    Consenter first = ConsenterUpdates.consenters(GENESIS.config()).getFirst();
    return first.toBuilder()
        .setId(5)
        .setMspId(mspId)
        .setIdentity(identity)
        .setPort(7055)
        .setClientTlsCert(tls)
        .setServerTlsCert(tls)
        .build();
  }

  private static ByteString certificate(Path signcerts) throws IOException {
    try (var files = Files.list(signcerts)) {
      return ByteString.copyFrom(Files.readAllBytes(files.findFirst().orElseThrow()));
    }
  }

  private static ByteString ordererAdminCertificate() throws IOException {
    return certificate(
        FabricFixtures.ordererOrg().resolve("users/Admin@example.com/msp/signcerts"));
  }

  private static ByteString org1AdminCertificate() throws IOException {
    return certificate(
        FabricFixtures.root()
            .resolve(
                "crypto/peerOrganizations/org1.example.com/users/Admin@org1.example.com/msp"
                    + "/signcerts"));
  }

  @Test
  void removingOneConsenterIsAcceptedWithTheQuorumPolicyOverTheRest() throws Exception {
    ChannelConfig next = proposed(without(3));

    assertThat(next.consenters().consenters()).extracting(c -> c.id()).containsExactly(1L, 2L, 3L);
    assertThat(next.consenters().quorums().quorum()).isEqualTo(2);
  }

  /**
   * Fabric's BFT config checks (orderer/consensus/smartbft) have no one-at-a-time rule (only its
   * etcdraft membership check has): several consenters may change in one update.
   */
  @Test
  void removingTwoConsentersAtOnceIsAcceptedAsFabricsBftAcceptsIt() throws Exception {
    ChannelConfig next = proposed(without(2, 3));

    assertThat(next.consenters().consenters()).extracting(c -> c.id()).containsExactly(1L, 2L);
    assertThat(next.consenters().quorums().quorum()).isEqualTo(2);
  }

  @Test
  void replacingAConsenterByAnotherIdIsAccepted() throws Exception {
    ChannelConfig next = proposed(edit(3, c -> c.toBuilder().setId(9).build()));

    assertThat(next.consenters().consenters())
        .extracting(c -> c.id())
        .containsExactlyInAnyOrder(1L, 2L, 3L, 9L);
  }

  @Test
  void renewingAConsentersIdentityInPlaceIsAccepted() throws Exception {
    ByteString renewed = ordererAdminCertificate();

    ChannelConfig next = proposed(edit(1, c -> c.toBuilder().setIdentity(renewed).build()));

    assertThat(next.consenters().byId(2).orElseThrow().identity()).isEqualTo(renewed);
    assertThat(next.consenters().size()).isEqualTo(4);
  }

  @Test
  void movingAConsenterToAnotherPortIsAccepted() throws Exception {
    ChannelConfig next = proposed(edit(0, c -> c.toBuilder().setPort(9999).build()));

    assertThat(next.consenters().byId(1).orElseThrow().port()).isEqualTo(9999);
  }

  @Test
  void aRenewedIdentityMustBeValidUnderItsOrdererMsp() throws Exception {
    ByteString foreign = org1AdminCertificate();

    assertThatThrownBy(() -> propose(edit(1, c -> c.toBuilder().setIdentity(foreign).build())))
        .isInstanceOf(ConfigUpdateException.class)
        .hasMessageStartingWith(
            PREFIX + "consenter 2: identity is not valid under MSP 'OrdererMSP'");
  }

  @Test
  void anAddedConsenterMustBelongToAnOrdererOrganization() throws Exception {
    Consenter fifth = fifth("Org1MSP", org1AdminCertificate());

    assertRefused(
        consenters -> {
          List<Consenter> next = new ArrayList<>(consenters);
          next.add(fifth);
          return next;
        },
        "consenter 5: msp_id 'Org1MSP' is not the MSP of an orderer organization [OrdererMSP]");
  }

  @Test
  void twoConsentersCannotShareACertificate() {
    ByteString first = ConsenterUpdates.consenters(GENESIS.config()).getFirst().getIdentity();

    assertThatThrownBy(() -> propose(edit(1, c -> c.toBuilder().setIdentity(first).build())))
        .isInstanceOf(ConfigUpdateException.class)
        .hasMessageStartingWith(PREFIX + "consenters 1 and 2 share the certificate of ");
  }

  @Test
  void twoConsentersCannotShareAnEndpoint() {
    Consenter first = ConsenterUpdates.consenters(GENESIS.config()).getFirst();

    assertRefused(
        edit(1, c -> c.toBuilder().setHost(first.getHost()).setPort(first.getPort()).build()),
        "consenters 1 and 2 share the endpoint " + first.getHost() + ":" + first.getPort());
  }

  @Test
  void anAddedConsenterWithItsOwnOrdererIdentityIsAccepted() throws Exception {
    Consenter fifth = fifth("OrdererMSP", ordererAdminCertificate());

    ChannelConfig next =
        proposed(
            consenters -> {
              List<Consenter> more = new ArrayList<>(consenters);
              more.add(fifth);
              return more;
            });

    assertThat(next.consenters().size()).isEqualTo(5);
    assertThat(next.consenters().quorums().quorum()).isEqualTo(4);
  }
}
