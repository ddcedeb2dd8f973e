package io.rubinbft.orderer.tools.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ConnectivityState;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.rubinbft.orderer.client.GrpcClients;
import io.rubinbft.orderer.config.HostPort;
import io.rubinbft.orderer.config.TlsSettings;
import io.rubinbft.orderer.grpc.GrpcListener;
import io.rubinbft.orderer.grpc.ListenerSettings;
import io.rubinbft.orderer.testing.Keepalives;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Connecting before a run: to a listening orderer, and past one that is down. */
class ConnectionWarmupTest {

  @Test
  void connectsToTheOrderersThatListenAndGivesUpOnThoseThatDoNot() throws Exception {
    GrpcListener up = listener();
    GrpcListener down = listener();
    int downPort = down.address().getPort();
    down.close();
    ManagedChannel toUp = open(up.address().getPort());
    ManagedChannel toDown = open(downPort);
    try {
      ConnectionWarmup.connectAll(List.of(toUp, toDown), Duration.ofMinutes(1));

      assertThat(toUp.getState(false)).isEqualTo(ConnectivityState.READY);
      assertThat(toDown.getState(false)).isEqualTo(ConnectivityState.TRANSIENT_FAILURE);
    } finally {
      GrpcClients.close(toUp);
      GrpcClients.close(toDown);
      up.close();
    }
  }

  private static GrpcListener listener() throws IOException {
    return GrpcListener.start(
        ListenerSettings.of(
            new HostPort("127.0.0.1", 0),
            TlsSettings.plaintext(),
            1 << 20,
            Keepalives.FABRIC_DEFAULTS),
        List.of());
  }

  private static ManagedChannel open(int port) {
    return GrpcClients.open(new HostPort("127.0.0.1", port), InsecureChannelCredentials.create());
  }
}
