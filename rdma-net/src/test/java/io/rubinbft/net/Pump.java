package io.rubinbft.net;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Drives several selectors from the test's one thread until a condition holds. The turn budget is a
 * liveness guard (a stuck protocol fails with a message instead of hanging), not a speed check.
 */
public final class Pump {

  private static final int DEFAULT_TURNS = 200_000;

  private final List<Selector> selectors;
  private final KeyHandler handler;

  public Pump(KeyHandler handler, Selector... selectors) {
    this.selectors = List.of(selectors);
    this.handler = handler;
  }

  /** One selectNow on every selector. */
  public void turn() {
    try {
      for (Selector selector : selectors) {
        selector.selectNow(handler);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Turns until {@code done} holds; fails naming {@code what} if it never does. */
  public void until(String what, BooleanSupplier done) {
    for (int i = 0; i < DEFAULT_TURNS; i++) {
      if (done.getAsBoolean()) {
        return;
      }
      turn();
      if (i > 1000) {
        Thread.onSpinWait();
      }
    }
    throw new AssertionError("never happened: " + what);
  }

  /** Turns {@code count} times. */
  public void turns(int count) {
    for (int i = 0; i < count; i++) {
      turn();
    }
  }
}
