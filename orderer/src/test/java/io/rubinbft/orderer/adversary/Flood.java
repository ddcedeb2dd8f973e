package io.rubinbft.orderer.adversary;

import java.time.Duration;

/** Repeats one sending step on a thread of its own, pausing between steps, until closed. */
// close() waits for what it started to end; a test interrupted there should fail on the
// InterruptedException, so close() declares it rather than swallowing it (javac's "try" lint).
@SuppressWarnings("try")
final class Flood implements AutoCloseable {

  /** One step of a flood. */
  interface Step {
    void send() throws Exception;
  }

  private final Thread thread;
  private volatile boolean running = true;
  private volatile Exception failure;

  Flood(String name, Duration pause, Step step) {
    this.thread =
        Thread.ofPlatform()
            .name("flood-" + name)
            .daemon()
            .start(
                () -> {
                  while (running) {
                    try {
                      step.send();
                      Thread.sleep(pause);
                    } catch (InterruptedException e) {
                      return;
                    } catch (Exception e) {
                      failure = e;
                      return;
                    }
                  }
                });
  }

  /** Stops the flood; fails with what ended it early, if anything did. */
  @Override
  public void close() throws Exception {
    running = false;
    thread.join(10_000);
    if (failure != null) {
      throw failure;
    }
  }
}
