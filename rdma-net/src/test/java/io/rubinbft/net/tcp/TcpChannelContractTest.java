package io.rubinbft.net.tcp;

import io.rubinbft.net.ChannelContractTest;
import io.rubinbft.net.transport.Transport;
import java.io.IOException;

/** The channel contract over TCP sockets on loopback. */
class TcpChannelContractTest extends ChannelContractTest {

  @Override
  protected Transport newTransport() throws IOException {
    return TcpTransport.open();
  }
}
