package io.rubinbft.orderer.crypto;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.function.Supplier;

/**
 * Idle instances of a stateful JCA engine ({@link java.security.Signature}, {@link
 * java.security.MessageDigest}) shared by all threads. A per-thread cache does not work here: gRPC
 * runs every Broadcast callback on a new virtual thread, so a {@code ThreadLocal} would look the
 * provider up and build a new engine for nearly every envelope. Bounded: beyond {@code capacity}
 * idle instances, returned ones are dropped (more than that are in use only while more threads than
 * cores run crypto at once).
 */
final class EnginePool<T> {

  private final ArrayBlockingQueue<T> idle;
  private final Supplier<T> factory;

  EnginePool(int capacity, Supplier<T> factory) {
    this.idle = new ArrayBlockingQueue<>(capacity);
    this.factory = factory;
  }

  /** An idle instance, or a new one; the caller owns it until it gives it back. */
  T take() {
    T instance = idle.poll();
    return instance != null ? instance : factory.get();
  }

  /** Returns an instance in a clean state (one that failed midway is simply not returned). */
  void give(T instance) {
    idle.offer(instance);
  }
}
