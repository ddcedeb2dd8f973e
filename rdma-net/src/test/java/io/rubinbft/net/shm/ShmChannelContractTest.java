package io.rubinbft.net.shm;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.net.ChannelContractTest;
import io.rubinbft.net.transport.Transport;
import io.rubinbft.net.verbs.VerbsException;
import io.rubinbft.net.verbs.provider.VerbsTransport;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The channel contract over the verbs provider on shared-memory verbs devices. After every test no
 * send may ever have found its receive unposted: the failure that crashed RUBIN. shm keeps RC's
 * harsher sides that the test double does not: a disconnect flushes both sides' posted requests,
 * and closed memory is really unmapped.
 */
class ShmChannelContractTest extends ChannelContractTest {

  @TempDir Path root;

  private final List<ShmVerbsDevice> devices = new ArrayList<>();

  @Override
  protected Transport newTransport() throws VerbsException {
    ShmVerbsDevice device = ShmVerbsDevice.open(ShmOptions.defaults(root));
    devices.add(device);
    return VerbsTransport.open(device, 4096, 256);
  }

  @AfterEach
  void noSendEverFoundItsReceiveUnposted() {
    for (ShmVerbsDevice device : devices) {
      assertThat(device.receiverNotReadyRetries()).as(device.name()).isZero();
    }
  }
}
