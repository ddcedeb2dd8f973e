package io.rubinbft.orderer.cluster;

import io.rubinbft.orderer.config.ClusterSettings;
import io.rubinbft.orderer.config.ClusterTransport;
import io.rubinbft.orderer.config.RdmaSettings;
import io.rubinbft.orderer.testing.FabricFixtures;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Cluster settings as a node loads them from an orderer.yaml that names only the transport (and the
 * shm directory): the RDMA defaults, the first fixture orderer's TLS key pair.
 */
public final class ClusterSettingsForTests {

  private ClusterSettingsForTests() {}

  public static ClusterSettings of(ClusterTransport transport, Path shmDirectory) {
    return of(transport, shmDirectory, "0.0.0.0");
  }

  public static ClusterSettings of(
      ClusterTransport transport, Path shmDirectory, String listenHost) {
    Path tls = FabricFixtures.orderer(1).resolve("tls");
    return new ClusterSettings(
        transport,
        listenHost,
        OptionalInt.empty(),
        tls.resolve("server.crt"),
        tls.resolve("server.key"),
        shmDirectory,
        new RdmaSettings(Optional.empty(), 1, OptionalInt.empty()),
        Optional.empty(),
        Optional.empty());
  }
}
