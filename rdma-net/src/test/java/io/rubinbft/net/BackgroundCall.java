package io.rubinbft.net;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/**
 * A call run on a platform daemon thread of its own (a select or a wait that blocks while the test
 * acts from its thread), its outcome, a value or what it threw, in {@code result}.
 */
public record BackgroundCall<T>(Thread thread, CompletableFuture<T> result) {

  public static <T> BackgroundCall<T> start(Callable<T> work) {
    CompletableFuture<T> result = new CompletableFuture<>();
    Thread thread =
        Thread.ofPlatform()
            .daemon()
            .start(
                () -> {
                  try {
                    result.complete(work.call());
                  } catch (Exception | AssertionError e) {
                    result.completeExceptionally(e);
                  }
                });
    return new BackgroundCall<>(thread, result);
  }
}
