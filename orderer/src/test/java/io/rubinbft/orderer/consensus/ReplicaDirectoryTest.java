package io.rubinbft.orderer.consensus;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.orderer.channel.ConfigBlockReader;
import io.rubinbft.orderer.channel.ConsenterMapping;
import io.rubinbft.orderer.testing.FabricFixtures;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The fixture channel's four consenters, placed on loopback ports 7001..7004. */
class ReplicaDirectoryTest {

  @Test
  void countsTheOtherReplicasAtConnectedAddresses() throws Exception {
    ReplicaDirectory directory = fixtureOnLoopback();
    for (int i = 0; i < directory.size(); i++) {
      directory.address(i);
    }
    Set<InetSocketAddress> connected = Set.of(loopback(7001), loopback(7002), loopback(7009));

    assertThat(directory.countConnected(0, connected)).isEqualTo(1);
    assertThat(directory.countConnected(2, connected)).isEqualTo(2);
  }

  @Test
  void aReplicaNeverSentToCountsAsNotConnected() throws Exception {
    ReplicaDirectory directory = fixtureOnLoopback();
    directory.address(1);

    assertThat(directory.countConnected(0, Set.of(loopback(7002), loopback(7003)))).isEqualTo(1);
  }

  private static ReplicaDirectory fixtureOnLoopback() throws Exception {
    ConsenterMapping mapping =
        ConfigBlockReader.read(
                Files.readAllBytes(FabricFixtures.root().resolve("bft-genesis.block")))
            .consenters();
    return new ReplicaDirectory(mapping, i -> loopback(7001 + i));
  }

  private static InetSocketAddress loopback(int port) {
    return new InetSocketAddress("127.0.0.1", port);
  }
}
