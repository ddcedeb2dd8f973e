package io.rubinbft.orderer.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.orderer.concurrent.Worker;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A removed channel's one-shot tasks have ended before its ledger may be deleted: stopping them
 * waits for them, and a task that ignores its stop is reported once its deadline passed.
 */
class ChannelTasksTest {

  @Test
  void stoppingAChannelsTasksWaitsUntilTheyEndedAndLeavesOtherChannelsRunning() throws Exception {
    ChannelTasks tasks = new ChannelTasks();
    AtomicLong writes = new AtomicLong();
    CountDownLatch writing = new CountDownLatch(1);
    CountDownLatch pulled = new CountDownLatch(1);
    // A catch-up: appends until its pull is closed (not interrupted, as the lifecycle's).
    tasks.start(
        "removed",
        Worker.named("catch-up-removed")
            .virtual()
            .notInterrupted()
            .wakeWith(pulled::countDown)
            .unstarted(
                self -> {
                  while (!pulled.await(1, TimeUnit.MILLISECONDS)) {
                    writes.incrementAndGet();
                    writing.countDown();
                  }
                }));
    CountDownLatch never = new CountDownLatch(1);
    tasks.start(
        "kept", Worker.named("catch-up-probe-kept").virtual().unstarted(self -> never.await()));
    assertThat(writing.await(30, TimeUnit.SECONDS)).isTrue();

    assertThat(tasks.stop("removed")).isTrue();

    long afterStop = writes.get();
    Thread.sleep(50);
    assertThat(writes.get()).as("no write after the stop returned").isEqualTo(afterStop);
    assertThat(tasks.runningOf("removed")).isZero();
    assertThat(tasks.runningOf("kept")).isOne();

    assertThat(tasks.stopAll()).isTrue();
    assertThat(tasks.runningOf("kept")).isZero();
  }

  @Test
  void aTaskThatIgnoresItsStopIsReportedAtItsDeadline() throws Exception {
    ChannelTasks tasks = new ChannelTasks();
    CountDownLatch release = new CountDownLatch(1);
    tasks.start(
        "stuck",
        Worker.named("catch-up-stuck")
            .notInterrupted()
            .stopDeadline(Duration.ofMillis(100))
            .unstarted(self -> release.await()));

    long started = System.nanoTime();
    assertThat(tasks.stop("stuck")).isFalse();
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
    release.countDown();
  }

  @Test
  void endedTasksAreForgotten() throws Exception {
    ChannelTasks tasks = new ChannelTasks();
    Worker done = Worker.named("catch-up-probe-done").unstarted(self -> {});
    tasks.start("channel", done);
    while (done.alive()) {
      Thread.sleep(1);
    }

    assertThat(tasks.runningOf("channel")).isZero();
    assertThat(tasks.stop("channel")).isTrue();
  }
}
