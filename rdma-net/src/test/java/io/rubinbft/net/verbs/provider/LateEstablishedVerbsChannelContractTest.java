package io.rubinbft.net.verbs.provider;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.net.ChannelContractTest;
import io.rubinbft.net.transport.Transport;
import io.rubinbft.net.verbs.VerbsException;
import org.junit.jupiter.api.AfterEach;

/**
 * The channel contract over the verbs provider when every accepting side sees its peer's first
 * frame complete before its own ESTABLISHED event: the ordering that made the suite fail at random
 * on Soft-RoCE, here on every connection of every test.
 */
class LateEstablishedVerbsChannelContractTest extends ChannelContractTest {

  private final LoopbackVerbsFabric fabric = new LoopbackVerbsFabric(true);

  @Override
  protected Transport newTransport() throws VerbsException {
    return VerbsTransport.open(new LoopbackVerbsDevice(fabric), 4096, 256);
  }

  @AfterEach
  void noSendEverFoundItsReceiveUnposted() {
    assertThat(fabric.receiverNotReady()).isZero();
  }
}
