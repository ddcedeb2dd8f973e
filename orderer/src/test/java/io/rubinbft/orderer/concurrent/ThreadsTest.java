package io.rubinbft.orderer.concurrent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ThreadsTest {

  @Test
  void aBlockedWorkerIsInterruptedAndHasEndedOnReturn() throws Exception {
    CountDownLatch never = new CountDownLatch(1);
    CompletableFuture<Boolean> interrupted = new CompletableFuture<>();
    Thread worker =
        Thread.ofPlatform()
            .start(
                () -> {
                  try {
                    never.await();
                    interrupted.complete(false);
                  } catch (InterruptedException e) {
                    interrupted.complete(true);
                  }
                });

    Threads.interruptAndJoin(worker);

    assertThat(worker.isAlive()).isFalse();
    assertThat(interrupted.getNow(false)).isTrue();
  }

  @Test
  void calledOnTheWorkerItselfItReturnsWithoutWaiting() throws Exception {
    CompletableFuture<Boolean> returned = new CompletableFuture<>();
    Thread worker =
        Thread.ofPlatform()
            .unstarted(
                () -> {
                  Threads.interruptAndJoin(Thread.currentThread());
                  returned.complete(!Thread.currentThread().isInterrupted());
                });
    worker.start();

    assertThat(returned.get(30, TimeUnit.SECONDS)).isTrue();
  }
}
