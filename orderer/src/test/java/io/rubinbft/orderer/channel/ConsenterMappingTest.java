package io.rubinbft.orderer.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ConsenterMappingTest {

  private static List<Consenter> fixture;

  @BeforeAll
  static void read() throws InvalidConfigException {
    fixture = ConfigBlockReader.read(Fixtures.block(0)).consenters().consenters();
  }

  @Test
  void ordersReplicasByConsenterId() {
    List<Consenter> shuffled = new ArrayList<>(fixture);
    Collections.reverse(shuffled);
    ConsenterMapping mapping = new ConsenterMapping(shuffled);
    assertThat(mapping.consenters()).extracting(Consenter::id).containsExactly(1L, 2L, 3L, 4L);
    assertThat(mapping).isEqualTo(new ConsenterMapping(fixture));
    assertThat(mapping.replicaIndex(3)).contains(2);
    assertThat(mapping.replicaIndex(9)).isEmpty();
    assertThat(mapping.byId(9)).isEmpty();
  }

  @Test
  void quorumFollowsTheSize() {
    assertThat(new ConsenterMapping(fixture.subList(0, 1)).quorums().quorum()).isEqualTo(1);
    assertThat(new ConsenterMapping(fixture.subList(0, 3)).quorums().quorum()).isEqualTo(2);
    assertThat(new ConsenterMapping(fixture).quorums().quorum()).isEqualTo(3);
  }

  /**
   * What a dialled cluster link checks: the consenter at the address dialled (host as the mapping
   * writes it, and port) with one of its own TLS certificates. Attack: another consenter, valid in
   * the channel, answering at this one's address.
   */
  @Test
  void aConsenterIsAtItsOwnHostAndPortAndPresentsOnlyItsOwnTlsCertificates() {
    Consenter second = fixture.get(1);
    Consenter third = fixture.get(2);
    InetSocketAddress dialled = InetSocketAddress.createUnresolved(second.host(), second.port());

    assertThat(second.isAt(dialled)).isTrue();
    assertThat(second.isAt(InetSocketAddress.createUnresolved(second.host(), second.port() + 1)))
        .isFalse();
    assertThat(second.isAt(InetSocketAddress.createUnresolved("elsewhere", second.port())))
        .isFalse();
    assertThat(second.hasTlsCertificate(second.serverTlsCertificate())).isTrue();
    assertThat(second.hasTlsCertificate(third.serverTlsCertificate())).isFalse();
    assertThat(second.hasTlsCertificate(second.identityCertificate())).isFalse();
  }

  @Test
  void refusesEmptyOrDuplicateMappings() {
    assertThatThrownBy(() -> new ConsenterMapping(List.of()))
        .hasMessage("the consenter mapping is empty");
    assertThatThrownBy(() -> new ConsenterMapping(List.of(fixture.get(1), fixture.get(1))))
        .hasMessage("consenter id 2 appears more than once");
  }
}
