package io.rubinbft.orderer.concurrent;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class WorkerTest {

  @Test
  void aBlockedBodyIsInterruptedAndHasEndedWhenCloseReturns() throws Exception {
    CountDownLatch never = new CountDownLatch(1);
    CompletableFuture<Boolean> interrupted = new CompletableFuture<>();
    Worker worker =
        Worker.named("blocked")
            .start(
                self -> {
                  try {
                    never.await();
                    interrupted.complete(false);
                  } catch (InterruptedException e) {
                    interrupted.complete(true);
                  }
                });

    worker.close();

    assertThat(worker.alive()).isFalse();
    assertThat(interrupted.getNow(false)).isTrue();
    assertThat(worker.failure()).isEmpty();
  }

  @Test
  void notInterruptedTheBodyEndsOnTheStopFlagAndTheWakeUp() throws Exception {
    Object monitor = new Object();
    CompletableFuture<Boolean> interrupted = new CompletableFuture<>();
    Worker worker =
        Worker.named("flagged")
            .notInterrupted()
            .wakeWith(
                () -> {
                  synchronized (monitor) {
                    monitor.notifyAll();
                  }
                })
            .unstarted(
                self -> {
                  synchronized (monitor) {
                    while (!self.stopRequested()) {
                      monitor.wait();
                    }
                  }
                  interrupted.complete(Thread.currentThread().isInterrupted());
                });
    worker.start();

    assertThat(worker.stop()).isTrue();

    assertThat(worker.alive()).isFalse();
    assertThat(interrupted.getNow(true)).isFalse();
  }

  @Test
  void aBodyThatThrowsWhileRunningFailedAndItsOwnerIsToldOnTheWorkersThread() throws Exception {
    CompletableFuture<String> toldOn = new CompletableFuture<>();
    Worker worker =
        Worker.named("failing")
            .onFailure(e -> toldOn.complete(Thread.currentThread().getName() + ": " + e))
            .start(
                self -> {
                  throw new IllegalStateException("broken invariant");
                });

    assertThat(toldOn.get(30, TimeUnit.SECONDS))
        .isEqualTo("failing: java.lang.IllegalStateException: broken invariant");
    assertThat(worker.failure())
        .get()
        .hasToString("java.lang.IllegalStateException: broken invariant");
    worker.close();
    assertThat(worker.alive()).isFalse();
  }

  @Test
  void anErrorEndingTheBodyIsAFailureToo() throws Exception {
    CompletableFuture<Throwable> told = new CompletableFuture<>();
    Worker.named("error")
        .onFailure(told::complete)
        .start(
            self -> {
              throw new StackOverflowError("deep");
            });

    assertThat(told.get(30, TimeUnit.SECONDS)).isInstanceOf(StackOverflowError.class);
  }

  @Test
  void aThrowAfterTheStopWasAskedForIsNoFailure() throws Exception {
    CompletableFuture<Throwable> told = new CompletableFuture<>();
    Worker worker =
        Worker.named("closing")
            .notInterrupted()
            .onFailure(told::complete)
            .start(
                self -> {
                  while (!self.stopRequested()) {
                    Thread.onSpinWait();
                  }
                  throw new IllegalStateException("queue closed under the body");
                });

    worker.close();

    assertThat(worker.alive()).isFalse();
    assertThat(worker.failure()).isEmpty();
    assertThat(told).isNotDone();
  }

  @Test
  void closedOnItsOwnThreadItReturnsWithoutWaiting() throws Exception {
    CompletableFuture<Boolean> returned = new CompletableFuture<>();
    Worker.named("self-closing")
        .start(
            self -> {
              self.close();
              returned.complete(self.stopRequested() && !Thread.currentThread().isInterrupted());
            });

    assertThat(returned.get(30, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void aBodyThatIgnoresTheStopIsReportedAtTheDeadline() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    Worker worker =
        Worker.named("stubborn")
            .notInterrupted()
            .stopDeadline(Duration.ofMillis(50))
            .start(self -> release.await());

    assertThat(worker.stop()).isFalse();
    assertThat(worker.alive()).isTrue();

    release.countDown();
    assertThat(worker.stop()).isTrue();
    assertThat(worker.alive()).isFalse();
  }

  @Test
  void aVirtualWorkerStopsLikeAPlatformOne() throws Exception {
    CompletableFuture<Boolean> virtual = new CompletableFuture<>();
    Worker worker =
        Worker.named("virtual")
            .virtual()
            .start(
                self -> {
                  virtual.complete(Thread.currentThread().isVirtual());
                  new CountDownLatch(1).await();
                });

    assertThat(virtual.get(30, TimeUnit.SECONDS)).isTrue();
    worker.close();
    assertThat(worker.alive()).isFalse();
  }

  @Test
  void closingAWorkerNeverStartedReturns() {
    Worker worker = Worker.named("never-started").unstarted(self -> {});

    assertThat(worker.stop()).isTrue();
    assertThat(worker.alive()).isFalse();
  }
}
