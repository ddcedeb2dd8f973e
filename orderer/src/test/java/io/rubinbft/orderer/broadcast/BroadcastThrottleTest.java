package io.rubinbft.orderer.broadcast;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.orderer.config.ThrottlingSettings;
import io.rubinbft.orderer.msp.TestCa;
import io.rubinbft.orderer.testing.FabricFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Which streams Fabric's Broadcast throttling applies to, and the keys it shares rates by: the
 * client certificate's Subject Key Identifier and its issuer's (Authority Key Identifier).
 */
class BroadcastThrottleTest {

  private static final TestCa ORG1 = TestCa.org1();
  private static final X509Certificate CLIENT =
      ORG1.issue("Org1 client", List.of("client")).certificate();

  @Test
  void onlyStreamsWithAClientCertificateAreThrottledAndOnlyWithARate() {
    try (BroadcastThrottle off =
            BroadcastThrottle.start(ThrottlingSettings.OFF, Clock.systemUTC());
        BroadcastThrottle on =
            BroadcastThrottle.start(
                new ThrottlingSettings(10, Duration.ofSeconds(5)), Clock.systemUTC())) {
      assertThat(off.turnOf(Optional.of(CLIENT))).isSameAs(BroadcastThrottle.Turn.NONE);
      assertThat(on.turnOf(Optional.empty())).isSameAs(BroadcastThrottle.Turn.NONE);
      assertThat(on.turnOf(Optional.of(CLIENT))).isNotSameAs(BroadcastThrottle.Turn.NONE);
    }
  }

  /**
   * The refilling thread ended by its clock failing: every throttled stream would wait for ever, so
   * the throttle says why, for {@code /healthz}'s "broadcast" check. Running, it says nothing.
   */
  @Test
  void refillsStoppedByAFailingClockAreReported() throws Exception {
    Clock failing =
        new Clock() {
          @Override
          public ZoneId getZone() {
            return ZoneOffset.UTC;
          }

          @Override
          public Clock withZone(ZoneId zone) {
            return this;
          }

          @Override
          public Instant instant() {
            throw new IllegalStateException("no time");
          }
        };
    try (BroadcastThrottle healthy =
            BroadcastThrottle.start(
                new ThrottlingSettings(10, Duration.ofSeconds(5)), Clock.systemUTC());
        BroadcastThrottle broken =
            BroadcastThrottle.start(new ThrottlingSettings(10, Duration.ofSeconds(5)), failing)) {
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (broken.failure().isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }

      assertThat(broken.failure())
          .contains("throttle refills stopped: java.lang.IllegalStateException: no time");
      assertThat(healthy.failure()).isEmpty();
    }
  }

  /**
   * Go's {@code Certificate.SubjectKeyId} and {@code AuthorityKeyId} as Fabric reads them from a
   * cryptogen TLS client certificate: no SKI extension (so the per-client key is empty, shared by
   * every such client, as in Fabric), the AKI its TLS CA's SKI.
   */
  @Test
  void theKeysAreTheCertificatesKeyIdentifiersAsGoReadsThem() throws Exception {
    Path org1 = FabricFixtures.root().resolve("crypto/peerOrganizations/org1.example.com");
    X509Certificate user =
        TestCa.parse(Files.readString(org1.resolve("users/User1@org1.example.com/tls/client.crt")));
    X509Certificate tlsCa =
        TestCa.parse(Files.readString(org1.resolve("tlsca/tlsca.org1.example.com-cert.pem")));

    assertThat(BroadcastThrottle.subjectKeyId(user)).isEmpty();
    assertThat(BroadcastThrottle.subjectKeyId(tlsCa)).hasSize(32);
    assertThat(BroadcastThrottle.authorityKeyId(user))
        .isEqualTo(BroadcastThrottle.subjectKeyId(tlsCa));
  }
}
