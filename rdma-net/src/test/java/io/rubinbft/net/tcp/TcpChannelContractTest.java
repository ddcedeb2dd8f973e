package io.rubinbft.net.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.net.Channel;
import io.rubinbft.net.ChannelContractTest;
import io.rubinbft.net.ChannelState;
import io.rubinbft.net.DropReason;
import io.rubinbft.net.Messages;
import io.rubinbft.net.Received;
import io.rubinbft.net.TamperingTransport.Injection;
import io.rubinbft.net.transport.Transport;
import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The channel contract over TCP sockets on loopback, and what only a stream transport does. */
class TcpChannelContractTest extends ChannelContractTest {

  @Override
  protected Transport newTransport() throws IOException {
    return TcpTransport.open();
  }

  @Test
  void capsConnectionsThatNeverSayHello() throws IOException {
    List<SocketChannel> silent = new ArrayList<>();
    try {
      for (int i = 0; i < 20; i++) {
        silent.add(SocketChannel.open(listener.localAddress()));
      }
      // The backlog in config(...) is 16: four of the twenty are closed at once.
      pump.until("silent connections refused", () -> server.stats().acceptsRefused() == 4);

      assertThat(accepted).isEmpty();
      Channel[] pair = connectPairAfterSilentOnesLeave(silent);
      assertThat(pair[1].state()).isEqualTo(ChannelState.OPEN);
    } finally {
      for (SocketChannel socket : silent) {
        socket.close();
      }
    }
  }

  private Channel[] connectPairAfterSilentOnesLeave(List<SocketChannel> silent) throws IOException {
    for (SocketChannel socket : silent) {
      socket.close();
    }
    pump.until("silent connections gone", () -> server.stats().channels().isEmpty());
    return connectPair();
  }

  @Test
  void anUnframeableStreamClosesItsChannelNamingTheLength() throws IOException {
    Channel[] bad = connectPair();
    clientTransport.injectAfterNextFrame(Injection.OVERSIZED_LENGTH);
    Received received = new Received();
    send(bad[0], Messages.message(8, 0, 50), bad[1], received);
    pump.until("bad channel closed", () -> bad[1].state() == ChannelState.CLOSED);

    assertThat(server.stats().dropped(DropReason.OVERSIZED)).isEqualTo(1);
    assertThat(bad[1].closeReason())
        .hasValueSatisfying(reason -> assertThat(reason).contains("frame length is"));
  }
}
