package io.rubinbft.orderer.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rubinbft.orderer.policy.GenesisChannel;
import io.rubinbft.orderer.testing.FabricFixtures;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Client certificate trust from ClientRootCAs plus the served channels' TLS CAs. */
class ChannelClientTrustTest {

  private static final Path ORDERER_TLS_CA = FabricFixtures.orderer(1).resolve("tls/ca.crt");
  private static final Path PEER_ORG = FabricFixtures.root().resolve("crypto/peerOrganizations");

  private static final X509Certificate[] ORG1_USER =
      chain("org1.example.com/users/User1@org1.example.com/tls/client.crt");
  private static final X509Certificate[] ORDERER_ADMIN =
      Pem.certificates(
              FabricFixtures.ordererOrg().resolve("users/Admin@example.com/tls/client.crt"))
          .toArray(new X509Certificate[0]);

  private volatile List<X509Certificate> channelCas = List.of();

  @Test
  void trustsTheConfiguredRootsAndTheChannelsTlsCas() {
    ChannelClientTrust trust = new ChannelClientTrust(List.of(ORDERER_TLS_CA), () -> channelCas);
    assertThatCode(() -> trust.checkClientTrusted(ORDERER_ADMIN, "ECDHE_ECDSA"))
        .doesNotThrowAnyException();
    assertThatThrownBy(() -> trust.checkClientTrusted(ORG1_USER, "ECDHE_ECDSA"))
        .isInstanceOf(CertificateException.class);

    channelCas = GenesisChannel.msps().tlsCaCertificates();

    assertThatCode(() -> trust.checkClientTrusted(ORG1_USER, "ECDHE_ECDSA"))
        .doesNotThrowAnyException();
  }

  @Test
  void stopsTrustingAnOrgOnceNoServedChannelNamesIt() throws CertificateException {
    channelCas = GenesisChannel.msps().tlsCaCertificates();
    ChannelClientTrust trust = new ChannelClientTrust(List.of(), () -> channelCas);
    trust.checkClientTrusted(ORG1_USER, "ECDHE_ECDSA");

    channelCas = List.of();

    assertThatThrownBy(() -> trust.checkClientTrusted(ORG1_USER, "ECDHE_ECDSA"))
        .isInstanceOf(CertificateException.class)
        .hasMessageContaining("no TLS client CA is trusted");
  }

  @Test
  void namesEachCaOnceWhateverHowManyChannelsCarryIt() {
    List<X509Certificate> genesisCas = GenesisChannel.msps().tlsCaCertificates();
    channelCas = List.of(genesisCas, genesisCas).stream().flatMap(List::stream).toList();
    ChannelClientTrust trust = new ChannelClientTrust(List.of(ORDERER_TLS_CA), () -> channelCas);

    assertThat(trust.anchors()).doesNotHaveDuplicates().containsAll(genesisCas);
    assertThat(trust.anchors()).hasSize(genesisCas.size());
  }

  /**
   * Go's TLS client sends no certificate when its issuer is not on the server's non-empty list of
   * acceptable CAs, and the list may be read once at listener start: it must stay empty.
   */
  @Test
  void announcesNoAcceptableIssuers() {
    channelCas = GenesisChannel.msps().tlsCaCertificates();
    assertThat(
            new ChannelClientTrust(List.of(ORDERER_TLS_CA), () -> channelCas).getAcceptedIssuers())
        .isEmpty();
  }

  @Test
  void checksClientsOnly() {
    ChannelClientTrust trust = new ChannelClientTrust(List.of(ORDERER_TLS_CA), List::of);
    assertThatThrownBy(() -> trust.checkServerTrusted(ORDERER_ADMIN, "ECDHE_ECDSA"))
        .isInstanceOf(CertificateException.class)
        .hasMessage("this trust manager checks TLS clients only");
  }

  private static X509Certificate[] chain(String file) {
    return Pem.certificates(PEER_ORG.resolve(file)).toArray(new X509Certificate[0]);
  }
}
