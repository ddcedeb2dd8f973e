package io.rubinbft.net.shm;

import io.rubinbft.net.SelectorWakeupContractTest;
import io.rubinbft.net.transport.Transport;
import io.rubinbft.net.verbs.provider.VerbsTransport;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The shm poller has no file descriptor: it waits by parking, and a wakeup unparks it. */
class ShmSelectorWakeupTest extends SelectorWakeupContractTest {

  @TempDir Path root;

  @Override
  protected Transport transport() throws IOException {
    return VerbsTransport.open(ShmVerbsDevice.open(ShmOptions.defaults(root)), 4096, 256);
  }
}
