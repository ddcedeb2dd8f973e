package io.rubinbft.orderer.concurrent;

/** Ending the worker threads the node's components own. */
public final class Threads {

  private Threads() {}

  /**
   * Interrupts {@code worker} and waits until it has ended, so that nothing it does outlives its
   * owner's close. Called on {@code worker} itself (an owner closed from its own thread), it only
   * returns: the thread ends when it returns in turn. A caller interrupted while waiting stops
   * waiting and keeps its interrupt status.
   */
  public static void interruptAndJoin(Thread worker) {
    if (Thread.currentThread() == worker) {
      return;
    }
    worker.interrupt();
    try {
      worker.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
