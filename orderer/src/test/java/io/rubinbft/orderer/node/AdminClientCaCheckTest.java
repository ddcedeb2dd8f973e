package io.rubinbft.orderer.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.orderer.config.TlsSettings;
import io.rubinbft.orderer.crypto.Pem;
import io.rubinbft.orderer.testing.FabricFixtures;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The start-up warning when the admin API's client CA also issues a channel org's TLS. */
class AdminClientCaCheckTest {

  private static final X509Certificate ORDERER_TLS_CA =
      Pem.certificates(FabricFixtures.ordererOrg().resolve("tlsca/tlsca.example.com-cert.pem"))
          .getFirst();
  private static final X509Certificate ORDERER_CA =
      Pem.certificates(FabricFixtures.ordererOrg().resolve("ca/ca.example.com-cert.pem"))
          .getFirst();

  @Test
  void anAdminClientRootThatIsAChannelTlsCaIsNamedInAWarning() {
    List<X509Certificate> shared =
        AdminClientCaCheck.shared(List.of(ORDERER_CA, ORDERER_TLS_CA), List.of(ORDERER_TLS_CA));

    assertThat(shared).containsExactly(ORDERER_TLS_CA);
    assertThat(AdminClientCaCheck.warnings(shared))
        .singleElement()
        .asString()
        .contains("Admin.TLS.ClientRootCAs includes CN=tlsca.example.com")
        .contains("each consenter's among them")
        .contains("give the admin API a client CA of its own");
  }

  @Test
  void anAdminClientCaOfItsOwnGivesNoWarning() {
    assertThat(AdminClientCaCheck.shared(List.of(ORDERER_CA), List.of(ORDERER_TLS_CA))).isEmpty();
  }

  /**
   * A channel joined after start (osnadmin) is checked too: the node calls {@link
   * AdminClientCaCheck#joined} from ChannelRegistry's join; before, only the channels served at
   * start were.
   */
  @Test
  void aChannelJoinedLaterWhoseTlsCaIsAnAdminClientRootIsNamedInAWarning() {
    Path nodeTls = FabricFixtures.orderer(1).resolve("tls");
    TlsSettings admin =
        new TlsSettings(
            true,
            nodeTls.resolve("server.crt"),
            nodeTls.resolve("server.key"),
            List.of(nodeTls.resolve("ca.crt")),
            true,
            List.of(FabricFixtures.ordererOrg().resolve("tlsca/tlsca.example.com-cert.pem")));
    List<String> warned = new ArrayList<>();
    AdminClientCaCheck check = AdminClientCaCheck.of(admin, warned::add);

    check.atStart(List.of());
    assertThat(warned).as("no channel at start").isEmpty();
    check.joined("mychannel", List.of(ORDERER_CA, ORDERER_TLS_CA));
    assertThat(warned)
        .singleElement()
        .asString()
        .startsWith(
            "channel mychannel joined: Admin.TLS.ClientRootCAs includes CN=tlsca.example.com");
  }
}
