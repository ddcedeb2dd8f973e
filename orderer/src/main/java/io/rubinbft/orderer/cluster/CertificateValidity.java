package io.rubinbft.orderer.cluster;

import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.util.Date;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Refuses a cluster peer whose certificate is expired or not yet valid, as Fabric's cluster TLS
 * does: counted ({@code cluster_certificates_refused_total}) and logged, at most one line per
 * {@value #LOG_INTERVAL_MILLIS} ms so a stranger replaying an expired certificate (it is public)
 * cannot flood the log. The check runs on the peer's HELLO, before it has proven it holds the key:
 * the counter says such a certificate was presented, not that its owner did it.
 */
final class CertificateValidity {

  private static final Logger LOG = LoggerFactory.getLogger(CertificateValidity.class);
  private static final long LOG_INTERVAL_MILLIS = 10_000;

  private final Clock clock;
  private final AtomicLong refused = new AtomicLong();
  private long lastLogMillis = Long.MIN_VALUE;

  CertificateValidity(Clock clock) {
    this.clock = clock;
  }

  /** Empty if {@code certificate} is valid now, else why not (and it is counted and logged). */
  Optional<String> rejectReason(X509Certificate certificate) {
    Date now = Date.from(clock.instant());
    String reason;
    try {
      certificate.checkValidity(now);
      return Optional.empty();
    } catch (CertificateExpiredException e) {
      reason = "expired at " + certificate.getNotAfter().toInstant();
    } catch (CertificateNotYetValidException e) {
      reason = "not valid before " + certificate.getNotBefore().toInstant();
    }
    String message =
        "cluster certificate of "
            + certificate.getSubjectX500Principal().getName()
            + " (serial "
            + certificate.getSerialNumber().toString(16)
            + ") refused: "
            + reason
            + ", now is "
            + now.toInstant();
    refused.incrementAndGet();
    long nowMillis = clock.millis();
    synchronized (this) {
      if (lastLogMillis == Long.MIN_VALUE || nowMillis - lastLogMillis >= LOG_INTERVAL_MILLIS) {
        lastLogMillis = nowMillis;
        LOG.warn("{} ({} refused so far)", message, refused.get());
      }
    }
    return Optional.of(message);
  }

  /** Certificates refused so far for their validity period. */
  long refused() {
    return refused.get();
  }
}
