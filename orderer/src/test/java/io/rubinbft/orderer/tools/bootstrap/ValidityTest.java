package io.rubinbft.orderer.tools.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ValidityTest {

  /** cryptogen: {@code time.Now().Round(time.Minute).Add(-5 * time.Minute)}; halves round up. */
  @ParameterizedTest
  @CsvSource({
    "2026-11-21T05:23:00Z, 2026-11-21T05:18:00Z",
    "2026-11-21T05:23:29.999Z, 2026-11-21T05:18:00Z",
    "2026-11-21T05:23:30Z, 2026-11-21T05:19:00Z",
    "2026-11-21T05:23:59Z, 2026-11-21T05:19:00Z",
    "2026-11-21T00:02:00Z, 2026-11-20T23:57:00Z"
  })
  void startsAtNowRoundedToTheMinuteLessFiveMinutes(Instant now, Instant notBefore) {
    Validity validity = Validity.cryptogenStyle(now);
    assertThat(validity.notBefore()).isEqualTo(notBefore);
    assertThat(validity.notAfter()).isEqualTo(notBefore.plus(Validity.CRYPTOGEN_LIFETIME));
  }
}
