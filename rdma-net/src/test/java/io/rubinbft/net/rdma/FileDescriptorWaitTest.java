package io.rubinbft.net.rdma;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rubinbft.net.BackgroundCall;
import io.rubinbft.net.verbs.VerbsException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The poll(2) wait under the rdma binding's event channel, on the host (plain Linux descriptors, no
 * RDMA device): a watched descriptor or a wakeup ends it, a wakeup before it makes it return at
 * once, and no wakeup is lost whenever it lands. Waits are ten minutes long, so only those can end
 * them; bounds on futures are liveness guards, not speed checks.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class FileDescriptorWaitTest {

  private static final long TEN_MINUTES_NANOS = TimeUnit.MINUTES.toNanos(10);

  private final Arena arena = Arena.ofShared();
  private FileDescriptorWait wait;
  private int watchedFd;

  @BeforeEach
  void open() throws VerbsException {
    wait = FileDescriptorWait.open(1);
    MemorySegment capture = arena.allocate(NativeCalls.CAPTURE);
    watchedFd = (int) NativeCalls.invoke(Libc.EVENTFD, capture, 0, Libc.EFD_NONBLOCK);
    assertThat(watchedFd).as("eventfd").isNotNegative();
  }

  @AfterEach
  void close() {
    wait.close();
    Libc.close(watchedFd, "the test's eventfd");
    arena.close();
  }

  @Test
  void aReadableDescriptorEndsTheWaitAndIsReported() throws Exception {
    int index = wait.watch(watchedFd);
    CompletableFuture<Boolean> awaited = awaitOnAnotherThread();
    Thread.sleep(100);
    assertThat(awaited).as("nothing readable: still waiting").isNotDone();

    MemorySegment one = arena.allocate(JAVA_LONG);
    one.set(JAVA_LONG, 0, 1L);
    assertThat((long) NativeCalls.invoke(Libc.WRITE, watchedFd, one, 8L)).isEqualTo(8);

    awaited.get(1, TimeUnit.MINUTES);
    assertThat(wait.readable(index)).isTrue();
  }

  @Test
  void aWakeupFromAnotherThreadEndsTheWait() throws Exception {
    int index = wait.watch(watchedFd);
    CompletableFuture<Boolean> awaited = awaitOnAnotherThread();
    Thread.sleep(100);
    assertThat(awaited).isNotDone();

    wait.wakeup();

    awaited.get(1, TimeUnit.MINUTES);
    assertThat(wait.readable(index)).isFalse();
  }

  @Test
  void aWakeupBeforeTheWaitMakesItReturnAtOnceAndOnlyOnce() throws Exception {
    wait.wakeup();
    wait.wakeup();
    awaitOnAnotherThread().get(1, TimeUnit.MINUTES);

    CompletableFuture<Boolean> next = awaitOnAnotherThread();
    Thread.sleep(100);
    assertThat(next).as("the wakeup was used up").isNotDone();
    wait.wakeup();
    next.get(1, TimeUnit.MINUTES);
  }

  /**
   * Wakeups land at seeded random moments around the waiter's entry into poll(2): before it, while
   * it resets the pending flag, while it sleeps. Each wait must end.
   */
  @Test
  void noWakeupIsLostWhereverItLands() throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    for (int round = 0; round < 300; round++) {
      CompletableFuture<Boolean> awaited = awaitOnAnotherThread();
      LockSupport.parkNanos(random.nextInt(50_000));
      wait.wakeup();
      assertThat(awaited.get(1, TimeUnit.MINUTES)).as("round %d, seed %d", round, seed).isTrue();
    }
  }

  @Test
  void refusesMoreDescriptorsThanItHolds() {
    wait.watch(watchedFd);

    assertThatThrownBy(() -> wait.watch(watchedFd))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("already watching 1 descriptors");
  }

  @Test
  void aWakeupAfterCloseDoesNothing() {
    wait.close();

    wait.wakeup();
    wait.close();
  }

  private CompletableFuture<Boolean> awaitOnAnotherThread() {
    return BackgroundCall.start(
            () -> {
              wait.await(TEN_MINUTES_NANOS);
              return true;
            })
        .result();
  }
}
