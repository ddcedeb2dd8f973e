package io.rubinbft.orderer.broadcast;

import io.rubinbft.orderer.concurrent.Worker;
import io.rubinbft.orderer.config.ThrottlingSettings;
import java.io.IOException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;
import org.bouncycastle.asn1.x509.AuthorityKeyIdentifier;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.SubjectKeyIdentifier;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fabric's Broadcast throttling ({@code General.Throttling}, orderer/common/server's
 * ThrottlingAtomicBroadcast): a stream whose connection has a TLS client certificate counts each
 * envelope it receives, and its end, against two shared rate limiters, one keyed by the
 * certificate's Subject Key Identifier (the client) and one by its Authority Key Identifier (its
 * issuing CA, so its organization), each {@code Rate} per second. Envelopes over the share wait
 * before they are validated, so the client's answers slow down, as Fabric's {@code Recv} does.
 * Streams without a client certificate are not throttled, as in Fabric. A thread refills the
 * budgets every second.
 */
public final class BroadcastThrottle implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(BroadcastThrottle.class);

  /** How often budgets are refilled: Fabric's per-second rate. */
  static final Duration PERIOD = Duration.ofSeconds(1);

  private final Optional<Limiters> limiters;

  private record Limiters(SharedRateLimiter clients, SharedRateLimiter orgs, Worker refills) {}

  /** Waits, if need be, before one envelope of a stream is handled. */
  @FunctionalInterface
  public interface Turn {

    /** Never waits. */
    Turn NONE = () -> {};

    void await() throws InterruptedException;
  }

  private BroadcastThrottle(Optional<Limiters> limiters) {
    this.limiters = limiters;
  }

  /** Starts throttling as {@code settings} say (nothing at rate 0). */
  public static BroadcastThrottle start(ThrottlingSettings settings, Clock clock) {
    if (!settings.enabled()) {
      return new BroadcastThrottle(Optional.empty());
    }
    SharedRateLimiter clients =
        new SharedRateLimiter(settings.rate(), settings.inactivityTimeout(), clock);
    SharedRateLimiter orgs =
        new SharedRateLimiter(settings.rate(), settings.inactivityTimeout(), clock);
    Worker refills =
        Worker.named("broadcast-throttle")
            .start(
                self -> {
                  while (!self.stopRequested()) {
                    Thread.sleep(PERIOD);
                    clients.refill();
                    orgs.refill();
                  }
                });
    LOG.info(
        "Broadcast throttled to {} messages per second per client and per organization",
        settings.rate());
    return new BroadcastThrottle(Optional.of(new Limiters(clients, orgs, refills)));
  }

  /**
   * Why the refills stopped, if they did: every throttled stream would then wait for ever once it
   * used its share, so {@code /healthz} fails its "broadcast" check.
   */
  public Optional<String> failure() {
    return limiters.flatMap(l -> l.refills().failure()).map(e -> "throttle refills stopped: " + e);
  }

  /** The turn-taking of a stream whose connection presented {@code clientCertificate}. */
  public Turn turnOf(Optional<X509Certificate> clientCertificate) {
    if (limiters.isEmpty() || clientCertificate.isEmpty()) {
      return Turn.NONE;
    }
    Limiters l = limiters.get();
    String client = hex(subjectKeyId(clientCertificate.get()));
    String org = hex(authorityKeyId(clientCertificate.get()));
    return () -> {
      l.clients().limitRate(client);
      l.orgs().limitRate(org);
    };
  }

  @Override
  public void close() {
    limiters.ifPresent(
        l -> {
          l.refills().close();
          l.clients().close();
          l.orgs().close();
        });
  }

  private static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }

  /** Go's {@code Certificate.SubjectKeyId}: empty when absent or unreadable. */
  static byte[] subjectKeyId(X509Certificate certificate) {
    byte[] extension = certificate.getExtensionValue(Extension.subjectKeyIdentifier.getId());
    if (extension == null) {
      return new byte[0];
    }
    try {
      return SubjectKeyIdentifier.getInstance(JcaX509ExtensionUtils.parseExtensionValue(extension))
          .getKeyIdentifier();
    } catch (IOException | IllegalArgumentException e) {
      return new byte[0];
    }
  }

  /** Go's {@code Certificate.AuthorityKeyId}: empty when absent or unreadable. */
  static byte[] authorityKeyId(X509Certificate certificate) {
    byte[] extension = certificate.getExtensionValue(Extension.authorityKeyIdentifier.getId());
    if (extension == null) {
      return new byte[0];
    }
    try {
      byte[] key =
          AuthorityKeyIdentifier.getInstance(JcaX509ExtensionUtils.parseExtensionValue(extension))
              .getKeyIdentifierOctets();
      return key == null ? new byte[0] : key;
    } catch (IOException | IllegalArgumentException e) {
      return new byte[0];
    }
  }
}
