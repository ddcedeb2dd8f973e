package io.rubinbft.net.verbs.provider;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.net.ChannelContractTest;
import io.rubinbft.net.transport.Transport;
import io.rubinbft.net.verbs.VerbsException;
import org.junit.jupiter.api.AfterEach;

/**
 * The channel contract over the verbs provider, on the in-process loopback TEST DOUBLE of a verbs
 * device (the shm and rdma bindings run the same suite through their own subclasses). After every
 * test no send may ever have found its receive unposted: the failure that crashed RUBIN.
 */
class VerbsChannelContractTest extends ChannelContractTest {

  private final LoopbackVerbsFabric fabric = new LoopbackVerbsFabric();

  @Override
  protected Transport newTransport() throws VerbsException {
    return VerbsTransport.open(new LoopbackVerbsDevice(fabric), 4096, 256);
  }

  @AfterEach
  void noSendEverFoundItsReceiveUnposted() {
    assertThat(fabric.receiverNotReady()).isZero();
  }
}
