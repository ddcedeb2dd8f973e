package io.rubinbft.orderer.service;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock the test moves, to let certificates expire while a stream is open. */
public final class SettableClock extends Clock {

  private volatile Instant now;

  public SettableClock(Instant now) {
    this.now = now;
  }

  public void set(Instant instant) {
    now = instant;
  }

  @Override
  public Instant instant() {
    return now;
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("the tests use UTC only");
  }
}
