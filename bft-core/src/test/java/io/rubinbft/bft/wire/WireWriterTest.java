package io.rubinbft.bft.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class WireWriterTest {

  private static final long SEED = Long.getLong("wire.seed", 20261121L);

  /** The counting pass must size strings exactly as the writing pass writes them. */
  @Test
  void countsUtf8LikeTheJdkEncodesIt() {
    Random random = new Random(SEED);
    char[] interesting = {'a', 0x7F, 0x80, 0x7FF, 0x800, 0xFFFF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF};
    for (int trial = 0; trial < 20_000; trial++) {
      char[] chars = new char[random.nextInt(12)];
      for (int i = 0; i < chars.length; i++) {
        chars[i] =
            random.nextBoolean()
                ? interesting[random.nextInt(interesting.length)]
                : (char) random.nextInt(0x10000);
      }
      String value = new String(chars);

      assertThat(WireWriter.utf8Length(value))
          .as("seed %d trial %d: %s", SEED, trial, value.chars().boxed().toList())
          .isEqualTo(value.getBytes(StandardCharsets.UTF_8).length);
    }
  }
}
