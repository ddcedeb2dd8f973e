package io.rubinbft.orderer.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rubinbft.net.ChannelConfig;
import io.rubinbft.net.Identity;
import io.rubinbft.net.transport.Transport;
import io.rubinbft.orderer.config.ClusterTransport;
import io.rubinbft.orderer.config.ConfigException;
import io.rubinbft.orderer.testing.FabricFixtures;
import io.rubinbft.orderer.tls.Pem;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterTransportsTest {

  @TempDir Path shm;

  private static ChannelConfig channels() {
    Path tls = FabricFixtures.orderer(1).resolve("tls");
    return ChannelConfig.defaults(
        new Identity(
            Pem.certificates(tls.resolve("server.crt")).getFirst(),
            Pem.privateKey(tls.resolve("server.key"))));
  }

  @Test
  void shmOpensADeviceInTheSharedDirectoryCreatingIt() throws IOException {
    Path directory = shm.resolve("cluster");
    try (Transport transport =
        ClusterTransports.open(ClusterTransport.SHM, directory, channels())) {
      assertThat(transport.name()).isEqualTo("verbs:shm:" + directory);
      assertThat(directory).isDirectory();
    }
  }

  @Test
  void rdmaIsRefusedNamingTheTransportsThatWork() {
    assertThatThrownBy(() -> ClusterTransports.open(ClusterTransport.RDMA, shm, channels()))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("General.Cluster.Transport is 'rdma'")
        .hasMessageEndingWith("choose tcp (any network) or shm (nodes on one host)");
  }
}
