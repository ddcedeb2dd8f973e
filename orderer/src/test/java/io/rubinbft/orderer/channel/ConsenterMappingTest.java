package io.rubinbft.orderer.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

  @Test
  void refusesEmptyOrDuplicateMappings() {
    assertThatThrownBy(() -> new ConsenterMapping(List.of()))
        .hasMessage("the consenter mapping is empty");
    assertThatThrownBy(() -> new ConsenterMapping(List.of(fixture.get(1), fixture.get(1))))
        .hasMessage("consenter id 2 appears more than once");
  }
}
