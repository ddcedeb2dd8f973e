package io.rubinbft.orderer.broadcast;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.orderer.service.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * Fabric's shared rate limiter, refilled by hand: a client's share is the limit split by the
 * clients seen, a client over its share waits for the next refill, inactive clients are forgotten.
 */
class SharedRateLimiterTest {

  private static final Instant START = Instant.parse("2026-11-28T08:00:00Z");

  private final SettableClock clock = new SettableClock(START);

  /** {@code limitRate} on its own thread, so a test can see whether it waits. */
  private static CompletableFuture<Void> send(SharedRateLimiter limiter, String client) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    Thread.ofVirtual()
        .start(
            () -> {
              try {
                limiter.limitRate(client);
                done.complete(null);
              } catch (InterruptedException e) {
                done.completeExceptionally(e);
              }
            });
    return done;
  }

  private static boolean waits(CompletableFuture<Void> send) throws Exception {
    try {
      send.get(300, TimeUnit.MILLISECONDS);
      return false;
    } catch (TimeoutException e) {
      return true;
    }
  }

  @Test
  void aClientOverItsShareWaitsForTheNextRefill() throws Exception {
    SharedRateLimiter limiter = new SharedRateLimiter(3, Duration.ofSeconds(10), clock);
    for (int i = 0; i < 3; i++) {
      assertThat(waits(send(limiter, "a"))).isFalse();
    }

    CompletableFuture<Void> fourth = send(limiter, "a");
    assertThat(waits(fourth)).isTrue();
    limiter.refill();
    fourth.get(5, TimeUnit.SECONDS);
    // The refill reset the count: a whole share again before the next wait.
    for (int i = 0; i < 3; i++) {
      assertThat(waits(send(limiter, "a"))).isFalse();
    }
    assertThat(waits(send(limiter, "a"))).isTrue();
  }

  @Test
  void theLimitIsSplitBetweenTheClientsSeen() throws Exception {
    SharedRateLimiter limiter = new SharedRateLimiter(4, Duration.ofSeconds(10), clock);
    assertThat(waits(send(limiter, "a"))).isFalse();
    assertThat(waits(send(limiter, "b"))).isFalse();
    assertThat(waits(send(limiter, "b"))).isFalse();

    CompletableFuture<Void> third = send(limiter, "b");
    assertThat(waits(third)).isTrue();
    assertThat(waits(send(limiter, "a"))).isFalse();
    limiter.refill();
    third.get(5, TimeUnit.SECONDS);
  }

  @Test
  void aClientInactiveLongerThanTheTimeoutIsForgottenAndItsShareGoesToTheOthers() throws Exception {
    SharedRateLimiter limiter = new SharedRateLimiter(2, Duration.ofSeconds(5), clock);
    assertThat(waits(send(limiter, "quiet"))).isFalse();
    clock.set(START.plusSeconds(6));
    assertThat(waits(send(limiter, "busy"))).isFalse();
    limiter.refill();
    assertThat(limiter.clients()).isEqualTo(1);

    // Alone now, the whole limit is its share: its count 1 goes to 2, the third send takes the
    // refill and starts a new count (Fabric keeps one refill, not more), 1 and 2 pass, 3 waits.
    // With the quiet client still counted (a share of 1) the second send after the refill waits.
    int passed = 0;
    while (!waits(send(limiter, "busy"))) {
      passed++;
    }
    assertThat(passed).isEqualTo(4);
  }

  @Test
  void closingLetsWaitingClientsGo() throws Exception {
    SharedRateLimiter limiter = new SharedRateLimiter(1, Duration.ofSeconds(5), clock);
    assertThat(waits(send(limiter, "a"))).isFalse();
    CompletableFuture<Void> waiting = send(limiter, "a");
    assertThat(waits(waiting)).isTrue();

    limiter.close();

    waiting.get(5, TimeUnit.SECONDS);
    assertThat(waits(send(limiter, "a"))).isFalse();
  }
}
