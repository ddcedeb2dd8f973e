package io.rubinbft.net.tcp;

import io.rubinbft.net.SelectorWakeupContractTest;
import io.rubinbft.net.transport.Transport;
import java.io.IOException;

class TcpSelectorWakeupTest extends SelectorWakeupContractTest {

  @Override
  protected Transport transport() throws IOException {
    return TcpTransport.open();
  }
}
