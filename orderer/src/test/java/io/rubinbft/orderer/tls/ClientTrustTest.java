package io.rubinbft.orderer.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rubinbft.orderer.msp.TestCa;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Client certificate trust that follows the channels' TLS CAs: roots and intermediates named by a
 * channel config are trusted while they are named, the listener's own roots always.
 */
class ClientTrustTest {

  private static final String AUTH_TYPE = "ECDHE_ECDSA";

  private final TestCa ownRoot = TestCa.generate("tlsca.orderer");
  private final TestCa orgRoot = TestCa.generate("tlsca.org2");
  private final TestCa orgIntermediate = orgRoot.intermediate("ica.tlsca.org2");
  private final AtomicReference<List<X509Certificate>> channelCas =
      new AtomicReference<>(List.of());
  private final ClientTrust trust =
      new ClientTrust(List.of(ownRoot.certificate()), channelCas::get);

  @Test
  void theListenersOwnRootsAreAlwaysTrusted() {
    X509Certificate[] admin = {ownRoot.issue("Admin", List.of("client")).certificate()};

    assertThatCode(() -> trust.checkClientTrusted(admin, AUTH_TYPE)).doesNotThrowAnyException();
  }

  @Test
  void anOrgsClientsAreTrustedWhileAChannelNamesItsRoot() {
    X509Certificate[] user = {orgRoot.issue("User1", List.of("client")).certificate()};
    assertThatThrownBy(() -> trust.checkClientTrusted(user, AUTH_TYPE))
        .isInstanceOf(CertificateException.class);

    channelCas.set(List.of(orgRoot.certificate()));
    assertThatCode(() -> trust.checkClientTrusted(user, AUTH_TYPE)).doesNotThrowAnyException();

    channelCas.set(List.of());
    assertThatThrownBy(() -> trust.checkClientTrusted(user, AUTH_TYPE))
        .isInstanceOf(CertificateException.class);
  }

  @Test
  void aTlsIntermediateCaNamedByAChannelIsEnoughOnItsOwn() {
    X509Certificate[] user = {orgIntermediate.issue("User1", List.of("client")).certificate()};
    channelCas.set(List.of(orgIntermediate.certificate()));

    assertThatCode(() -> trust.checkClientTrusted(user, AUTH_TYPE)).doesNotThrowAnyException();
  }

  @Test
  void withoutOwnRootsOnlyTheChannelsCasAreTrusted() {
    ClientTrust channelsOnly = new ClientTrust(List.of(), channelCas::get);
    X509Certificate[] user = {orgRoot.issue("User1", List.of("client")).certificate()};
    assertThatThrownBy(() -> channelsOnly.checkClientTrusted(user, AUTH_TYPE))
        .isInstanceOf(CertificateException.class);

    channelCas.set(List.of(orgRoot.certificate()));

    assertThatCode(() -> channelsOnly.checkClientTrusted(user, AUTH_TYPE))
        .doesNotThrowAnyException();
  }

  @Test
  void theCertificateRequestNamesNoCas() {
    channelCas.set(List.of(orgRoot.certificate()));

    assertThat(trust.getAcceptedIssuers()).isEmpty();
  }
}
