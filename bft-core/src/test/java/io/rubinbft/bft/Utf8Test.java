package io.rubinbft.bft;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** UTF-8 sizes against the JDK's encoder, on random strings rich in boundary characters. */
class Utf8Test {

  private static final long SEED = Long.getLong("property.seed", 20261121L);
  private static final char[] INTERESTING = {
    'a', 0x7F, 0x80, 0x7FF, 0x800, 0xFFFF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF
  };

  @Test
  void countsUtf8LikeTheJdkEncodesIt() {
    Random random = new Random(SEED);
    for (int trial = 0; trial < 20_000; trial++) {
      String value = randomString(random);
      assertThat(Utf8.length(value))
          .as("seed %d trial %d: %s", SEED, trial, value.chars().boxed().toList())
          .isEqualTo(value.getBytes(StandardCharsets.UTF_8).length);
    }
  }

  /** A string round-trips through UTF-8 exactly when it has no lone surrogate. */
  @Test
  void findsExactlyTheStringsUtf8CannotCarry() {
    Random random = new Random(SEED);
    for (int trial = 0; trial < 20_000; trial++) {
      String value = randomString(random);
      String roundTripped =
          new String(value.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
      assertThat(Utf8.loneSurrogate(value) < 0)
          .as("seed %d trial %d: %s", SEED, trial, value.chars().boxed().toList())
          .isEqualTo(roundTripped.equals(value));
    }
  }

  @Test
  void namesTheFirstLoneSurrogate() {
    assertThat(Utf8.loneSurrogate("a\uD83D\uDE00b\uDC00\uD800")).isEqualTo(4);
    assertThat(Utf8.loneSurrogate("a\uD83D\uDE00b")).isEqualTo(-1);
  }

  private static String randomString(Random random) {
    char[] chars = new char[random.nextInt(12)];
    for (int i = 0; i < chars.length; i++) {
      chars[i] =
          random.nextBoolean()
              ? INTERESTING[random.nextInt(INTERESTING.length)]
              : (char) random.nextInt(0x10000);
    }
    return new String(chars);
  }
}
