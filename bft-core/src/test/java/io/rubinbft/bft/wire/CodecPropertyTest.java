package io.rubinbft.bft.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.testdata.fuzz.Mutator;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Properties of both codecs over seeded random values of every message and WAL record type. Each
 * value comes from its own seed, which a failure names; {@code -Dwire.seed=N} moves the whole run,
 * {@code -Dwire.roundTrips=N} and {@code -Dwire.mutatedValues=N} lengthen it (WIRE.md "Tests").
 */
class CodecPropertyTest {

  private static final long BASE_SEED = Long.getLong("wire.seed", 20261121L);
  private static final int ROUND_TRIPS = Integer.getInteger("wire.roundTrips", 10_000);
  private static final int DEEP_COMPARISONS = 200;
  private static final int TRUNCATED_VALUES = 50;
  private static final int MUTATED_VALUES = Integer.getInteger("wire.mutatedValues", 1_000);
  private static final int MUTATIONS_PER_VALUE = 8;

  static List<Subject> subjects() {
    return Subject.all(TestLimits.LIMITS);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("subjects")
  void decodingAnEncodingGivesTheValueAndTheSameBytes(Subject subject) {
    for (int i = 0; i < ROUND_TRIPS; i++) {
      long seed = seed(subject, i);
      Object value = subject.generate().apply(seed);
      byte[] bytes = subject.encode().apply(value);
      Decoded<?> decoded = subject.decode(bytes);
      assertThat(decoded).as(describe(subject, seed)).isInstanceOf(Decoded.Valid.class);
      Object back = ((Decoded.Valid<?>) decoded).value();
      assertThat(subject.encode().apply(back)).as(describe(subject, seed)).isEqualTo(bytes);
      if (i < DEEP_COMPARISONS) {
        assertThat(back).as(describe(subject, seed)).usingRecursiveComparison().isEqualTo(value);
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("subjects")
  void decodesFromTheMiddleOfALargerBuffer(Subject subject) {
    long seed = seed(subject, 0);
    byte[] bytes = subject.encode().apply(subject.generate().apply(seed));
    byte[] framed = new byte[bytes.length + 20];
    Arrays.fill(framed, (byte) 0x5A);
    System.arraycopy(bytes, 0, framed, 7, bytes.length);

    Decoded<?> decoded = subject.decode().decode(framed, 7, bytes.length);

    assertThat(decoded).as(describe(subject, seed)).isInstanceOf(Decoded.Valid.class);
    Object value = ((Decoded.Valid<?>) decoded).value();
    assertThat(subject.encode().apply(value)).isEqualTo(bytes);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("subjects")
  void everyTruncationIsInvalidWithAReason(Subject subject) {
    for (int i = 0; i < TRUNCATED_VALUES; i++) {
      long seed = seed(subject, i);
      byte[] bytes = subject.encode().apply(subject.generate().apply(seed));
      for (int length = 0; length < bytes.length; length++) {
        Decoded<?> decoded = subject.decode().decode(bytes, 0, length);
        assertThat(decoded)
            .as("%s, first %d bytes", describe(subject, seed), length)
            .isInstanceOfSatisfying(
                Decoded.Invalid.class, invalid -> assertThat(invalid.reason()).isNotBlank());
      }
    }
  }

  /**
   * Mutated bytes never make the decoder throw, and whatever still decodes re-encodes to exactly
   * the mutated bytes: no two byte strings decode to one value.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("subjects")
  void mutatedBytesNeverThrowAndStayCanonical(Subject subject) {
    for (int i = 0; i < MUTATED_VALUES; i++) {
      long seed = seed(subject, i);
      Random random = new Random(seed);
      byte[] bytes = subject.encode().apply(subject.generate().apply(seed));
      Mutator mutator = new Mutator(List.of(bytes), bytes.length);
      for (int m = 0; m < MUTATIONS_PER_VALUE; m++) {
        byte[] mutated = mutator.mutate(bytes.clone(), random);
        Decoded<?> decoded = subject.decode(mutated);
        // Another version byte may read in an older, read-only WAL format, which re-encodes in the
        // current one.
        if (decoded instanceof Decoded.Valid<?> valid && mutated[0] == bytes[0]) {
          assertThat(subject.encode().apply(valid.value()))
              .as("%s, mutation %d", describe(subject, seed), m)
              .isEqualTo(mutated);
        }
      }
    }
  }

  private static long seed(Subject subject, int index) {
    return BASE_SEED * 1_000_003L + subject.name().hashCode() * 65_537L + index;
  }

  private static String describe(Subject subject, long seed) {
    return subject.name() + " from seed " + seed + " (-Dwire.seed=" + BASE_SEED + ")";
  }
}
