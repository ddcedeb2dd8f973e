package io.rubinbft.orderer.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FreePortsTest {

  /**
   * Blocks picked one after another, none bound in between (as a cluster's ports are picked before
   * its nodes start), never share a port: 300 random blocks of 4 would overlap about 14 times if
   * each pick looked only at what is bound.
   */
  @Test
  void blocksPickedBeforeAnyIsBoundNeverOverlap() {
    Set<Integer> taken = new HashSet<>();
    for (int i = 0; i < 300; i++) {
      int base = FreePorts.block(4);
      for (int port = base; port < base + 4; port++) {
        assertThat(taken.add(port)).as("port %d handed out twice", port).isTrue();
      }
    }
  }
}
