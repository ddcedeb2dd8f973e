package io.rubinbft.orderer.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** "Replica id of this node": the consenter whose identity or TLS certificate is this node's. */
class ThisNodeTest {

  private static ChannelConfig genesis;

  @BeforeAll
  static void read() throws InvalidConfigException {
    genesis = ConfigBlockReader.read(Fixtures.block(0));
  }

  @Test
  void foundByEnrollmentCertificate() throws NotAConsenterException {
    for (int n = 1; n <= 4; n++) {
      var cert = Fixtures.certificate(Fixtures.ordererSigncertPem(n));
      assertThat(genesis.thisNode(cert).id()).isEqualTo(n);
    }
  }

  @Test
  void foundByTlsServerCertificate() throws NotAConsenterException {
    var tls = Fixtures.certificate(Fixtures.bytes(Fixtures.ordererDir(2) + "/tls/server.crt"));
    assertThat(genesis.thisNode(tls).id()).isEqualTo(2);
  }

  @Test
  void aPeerIsNotAConsenter() {
    var peer =
        Fixtures.certificate(
            Fixtures.bytes(
                "crypto/peerOrganizations/org1.example.com/peers/peer0.org1.example.com/msp/"
                    + "signcerts/peer0.org1.example.com-cert.pem"));
    assertThatThrownBy(() -> genesis.thisNode(peer))
        .isInstanceOf(NotAConsenterException.class)
        .hasMessageStartingWith("this node (CN=peer0.org1.example.com")
        .hasMessageContaining("is not a consenter of channel 'fixture' as of config block 0")
        .hasMessageContaining("1 (CN=orderer1.example.com");
  }
}
