package io.rubinbft.bft.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.message.Message;
import io.rubinbft.testdata.fuzz.Fuzzer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Fuzzing of what a peer sends (messages) and what recovery reads (WAL records), from valid samples
 * of every type (README "Fuzzing"): the codecs' contract is that decoding never throws, whatever
 * the bytes, and allocates for what is present only; whatever decodes re-encodes to the very same
 * bytes. The replica's network thread calls {@code decode} with a peer's bytes and drops an
 * Invalid, so an exception here would end that message's handling in the host instead.
 */
class WireFuzzTest {

  /** Small limits, so the limits themselves are reached by the mutations. */
  private static final WireLimits LIMITS = TestLimits.LIMITS;

  /** Limits so generous that only the bytes present can stop a lying length or count. */
  private static final WireLimits GENEROUS =
      new WireLimits(
          4, Integer.MAX_VALUE, Integer.MAX_VALUE, Long.MAX_VALUE, 0, 1 << 30, 1 << 20, 1 << 30);

  /** A decode allocates objects for the bytes present, never for a length it read. */
  private static final long ALLOCATION_FIXED = 256 * 1024;

  private static final long ALLOCATION_PER_BYTE = 256;

  @Test
  void messagesDecodeOrAreRefusedAndStayCanonical() {
    MessageCodec codec = new MessageCodec(LIMITS);
    Fuzzer.of("bft-core MessageCodec", messageSamples(LIMITS))
        .inputs(20_000)
        .allocationLimit(ALLOCATION_FIXED, ALLOCATION_PER_BYTE)
        .run(
            (bytes, random) -> {
              if (codec.decode(bytes) instanceof Decoded.Valid<Message> valid) {
                assertThat(codec.encode(valid.value())).isEqualTo(bytes);
                return true;
              }
              return false;
            });
  }

  @Test
  void lyingLengthsUnderGenerousLimitsAllocateOnlyForTheBytesPresent() {
    MessageCodec codec = new MessageCodec(GENEROUS);
    Fuzzer.of("bft-core MessageCodec, generous limits", messageSamples(LIMITS))
        .inputs(10_000)
        .allocationLimit(ALLOCATION_FIXED, ALLOCATION_PER_BYTE)
        .run((bytes, random) -> codec.decode(bytes) instanceof Decoded.Valid<Message>);
  }

  @Test
  void walRecordsDecodeOrAreRefusedAndStayCanonical() {
    WalRecordCodec codec = new WalRecordCodec(LIMITS);
    Fuzzer.of("bft-core WalRecordCodec", recordSamples(LIMITS))
        .inputs(10_000)
        .allocationLimit(ALLOCATION_FIXED, ALLOCATION_PER_BYTE)
        .run(
            (bytes, random) -> {
              if (codec.decode(bytes) instanceof Decoded.Valid<WalRecord> valid) {
                // An older format's record re-encodes in the current one.
                if (bytes[0] == WalRecordCodec.VERSION) {
                  assertThat(codec.encode(valid.value())).isEqualTo(bytes);
                }
                return true;
              }
              return false;
            });
  }

  private static List<byte[]> messageSamples(WireLimits limits) {
    return samples(RandomWire.messageKinds(), new MessageCodec(limits)::encode, limits);
  }

  private static List<byte[]> recordSamples(WireLimits limits) {
    return samples(RandomWire.recordKinds(), new WalRecordCodec(limits)::encode, limits);
  }

  /** Four encodings of every kind (seeds 0 to 3). */
  private static <T> List<byte[]> samples(
      List<RandomWire.Kind<T>> kinds, Function<T, byte[]> encode, WireLimits limits) {
    List<byte[]> samples = new ArrayList<>();
    for (RandomWire.Kind<T> kind : kinds) {
      for (long seed = 0; seed < 4; seed++) {
        samples.add(encode.apply(kind.generate(seed, limits)));
      }
    }
    return samples;
  }
}
