package io.rubinbft.orderer.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rubinbft.net.ChannelConfig;
import io.rubinbft.net.Identity;
import io.rubinbft.net.transport.Transport;
import io.rubinbft.orderer.config.ClusterTransport;
import io.rubinbft.orderer.config.ConfigException;
import io.rubinbft.orderer.crypto.Pem;
import io.rubinbft.orderer.testing.FabricFixtures;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
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
        ClusterTransports.open(
            ClusterSettingsForTests.of(ClusterTransport.SHM, directory), channels())) {
      assertThat(transport.name()).isEqualTo("verbs:shm:" + directory);
      assertThat(directory).isDirectory();
    }
  }

  /**
   * This host has no RDMA device (and maybe no rdma-core): start-up fails naming what is missing
   * and the transports that work instead. Skipped on a host where rdma opens.
   */
  @Test
  void rdmaWithoutADeviceFailsNamingWhatIsMissingAndTheAlternatives() {
    ConfigException failure = rdmaFailure();
    Assumptions.assumeTrue(failure != null, "this host has a usable RDMA device");
    assertThat(failure.getMessage())
        .startsWith(
            "General.Cluster.Transport is 'rdma' but it cannot start: rdma transport unavailable: ")
        .endsWith("choose transport tcp (any network) or shm (processes on one host) instead")
        .satisfiesAnyOf(
            message -> assertThat(message).contains("no RDMA device found", "Soft-RoCE"),
            message -> assertThat(message).contains("libibverbs.so.1", "is not installed"));
  }

  /** Without libdisni (no registry ships it) start-up says so and names the other transports. */
  @Test
  void disniWithoutItsLibraryFailsNamingTheTransportsThatNeedNone() {
    assertThatThrownBy(
            () ->
                ClusterTransports.open(
                    ClusterSettingsForTests.of(ClusterTransport.DISNI, shm, "127.0.0.1"),
                    channels()))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith(
            "General.Cluster.Transport is 'disni' but it cannot start: disni transport unavailable:")
        .hasMessageContaining("libdisni")
        .hasMessageEndingWith(
            "or choose transport rdma (rdma-core through Java's FFM API, no native build), tcp (any"
                + " network) or shm (processes on one host) instead");
  }

  @Test
  void disniNeedsTheRdmaInterfacesAddressNotTheWildcard() {
    assertThatThrownBy(
            () ->
                ClusterTransports.open(
                    ClusterSettingsForTests.of(ClusterTransport.DISNI, shm), channels()))
        .isInstanceOf(ConfigException.class)
        .hasMessage(
            "General.Cluster.ListenAddress is '0.0.0.0' but the disni transport opens the RDMA"
                + " device holding the listen address: give the RDMA interface's IP address");
  }

  private ConfigException rdmaFailure() {
    try (Transport _ =
        ClusterTransports.open(
            ClusterSettingsForTests.of(ClusterTransport.RDMA, shm), channels())) {
      return null;
    } catch (ConfigException e) {
      return e;
    } catch (IOException e) {
      throw new AssertionError("rdma opened but failed after: " + e.getMessage(), e);
    }
  }
}
