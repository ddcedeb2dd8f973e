package io.rubinbft.orderer.config;

import java.time.Duration;

/**
 * Fabric's {@code General.Throttling}: Broadcast clients that connect with a TLS client certificate
 * share {@code rate} messages per second, split evenly between the clients (by the certificate's
 * Subject Key Identifier) and again between their organizations (by its Authority Key Identifier).
 *
 * @param rate messages per second for all clients together; 0 turns throttling off
 * @param inactivityTimeout how long a client's share is kept while it sends nothing
 */
public record ThrottlingSettings(int rate, Duration inactivityTimeout) {

  /** Fabric's default: no throttling. */
  public static final ThrottlingSettings OFF = new ThrottlingSettings(0, Duration.ofSeconds(5));

  public ThrottlingSettings {
    if (rate < 0) {
      throw new IllegalArgumentException("rate must not be negative, got " + rate);
    }
  }

  public boolean enabled() {
    return rate > 0;
  }
}
