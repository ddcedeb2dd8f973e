package io.rubinbft.net;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.net.transport.Transport;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A selector with nothing to do waits in select until its timeout (or, with none, for ever), unless
 * another thread wakes it: what lets a network thread block instead of polling, yet send at once
 * what others queue. The selects below wait up to ten minutes or with no timeout; the one-minute
 * bound on the future is a liveness guard (a lost wakeup fails the test instead of hanging it), not
 * a speed check. Each provider runs it (subclasses).
 */
public abstract class SelectorWakeupContractTest {

  private static final long TEN_MINUTES_MILLIS = 600_000;

  private Selector selector;

  /** A fresh transport of the provider under test. */
  protected abstract Transport transport() throws IOException;

  @BeforeEach
  void open() throws IOException {
    selector =
        Selector.open(
            transport(),
            new ChannelConfig(TestIdentities.create("replica-0"), 8, 8, 16 * 1024, 1 << 20, 16));
  }

  @AfterEach
  void close() {
    selector.close();
  }

  @Test
  void aWakeupBeforeSelectKeepsItFromWaiting() throws Exception {
    selector.wakeup();

    assertThat(selectOnAnotherThread(false).get(1, TimeUnit.MINUTES)).isZero();
  }

  @Test
  void aWakeupBeforeASelectWithNoTimeoutKeepsItFromWaiting() throws Exception {
    selector.wakeup();

    assertThat(selectOnAnotherThread(true).get(1, TimeUnit.MINUTES)).isZero();
  }

  @Test
  void aWakeupFromAnotherThreadEndsAWaitingSelect() throws Exception {
    wakeupEndsAWaitingSelect(false);
  }

  @Test
  void aWakeupFromAnotherThreadEndsASelectWithNoTimeout() throws Exception {
    wakeupEndsAWaitingSelect(true);
  }

  private void wakeupEndsAWaitingSelect(boolean noTimeout) throws Exception {
    CompletableFuture<Integer> select = selectOnAnotherThread(noTimeout);
    // With nothing to do it is still waiting (a select that returned early would make its caller
    // spin through its loop: the idle CPU this contract exists to prevent).
    Thread.sleep(200);
    assertThat(select).isNotDone();

    selector.wakeup();

    assertThat(select.get(1, TimeUnit.MINUTES)).isZero();
  }

  private CompletableFuture<Integer> selectOnAnotherThread(boolean noTimeout) {
    KeyHandler ignore = key -> {};
    return BackgroundCall.start(
            () -> noTimeout ? selector.select(ignore) : selector.select(ignore, TEN_MINUTES_MILLIS))
        .result();
  }
}
