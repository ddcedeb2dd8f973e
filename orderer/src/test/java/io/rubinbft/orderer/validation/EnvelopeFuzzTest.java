package io.rubinbft.orderer.validation;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.orderer.crypto.Fixtures;
import io.rubinbft.orderer.deliver.SeekRange;
import io.rubinbft.orderer.deliver.SeekResolution;
import io.rubinbft.testdata.fuzz.Fuzzer;
import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Payload;
import org.hyperledger.fabric.protos.orderer.SeekInfo;
import org.junit.jupiter.api.Test;

/**
 * Fuzzing of what a Fabric client sends on Broadcast and Deliver (README "Fuzzing"), from the
 * envelopes Fabric's own clients sent: the bytes gRPC parses into an {@link Envelope} (or refuses
 * before our code runs), then everything the services do with it before the channel's consensus or
 * ledger: the validators' decoding of payload, headers and SeekInfo, the checks, the policy
 * evaluation, and the seek range against a height. Every input is answered with a verdict or a
 * range; an exception would end the client's stream with INTERNAL instead of Fabric's status.
 */
class EnvelopeFuzzTest {

  @Test
  void broadcastAnswersEveryEnvelopeWithAVerdict() {
    BroadcastValidator validator = FixtureValidators.broadcast();
    List<byte[]> samples =
        List.of(
            Fixtures.bytes("envelopes/tx-valid.envelope"),
            Fixtures.bytes("envelopes/tx-stale-timestamp.envelope"),
            Fixtures.bytes("envelopes/rejected-bad-signature.envelope"),
            Fixtures.bytes("envelopes/rejected-unknown-channel.envelope"));
    fuzzEnvelopes(
        "orderer Broadcast envelope",
        samples,
        (envelope, random) -> {
          BroadcastResult result = validator.validate(envelope);
          assertThat(result.verdict()).isNotNull();
          return result instanceof BroadcastResult.Accepted;
        });
  }

  @Test
  void deliverAnswersEveryEnvelopeWithAVerdictOrARange() {
    DeliverValidator validator = FixtureValidators.deliver();
    List<byte[]> samples =
        List.of(
            Fixtures.bytes("envelopes/deliver-seek-fixturetool.envelope"),
            Fixtures.bytes("envelopes/deliver-seek-peer-cli.envelope"),
            Fixtures.bytes("envelopes/deliver-seek-peer-node-blocks.envelope"),
            Fixtures.bytes("envelopes/deliver-seek-beyond-height-fail-if-not-ready.envelope"));
    fuzzEnvelopes(
        "orderer Deliver envelope and SeekInfo",
        samples,
        (envelope, random) -> {
          DeliverResult result = validator.validate(envelope, Optional.empty());
          if (!(result instanceof DeliverResult.Accepted accepted)) {
            assertThat(result.verdict().isSuccess()).isFalse();
            return false;
          }
          long height = 1 + random.nextLong(1L << 40);
          SeekResolution resolved = SeekRange.resolve(accepted.seekInfo(), height);
          if (resolved instanceof SeekResolution.Blocks(SeekRange range)) {
            assertThat(Long.compareUnsigned(range.start(), height)).isLessThanOrEqualTo(0);
          }
          return true;
        });
  }

  /**
   * The SeekInfo of a request that passed validation (mutated requests rarely do: the signature
   * covers it), resolved against any height.
   */
  @Test
  void seekInfosResolveToARangeOrAStatus() {
    List<byte[]> samples =
        List.of(
            seekInfo("deliver-seek-fixturetool"),
            seekInfo("deliver-seek-peer-cli"),
            seekInfo("deliver-seek-peer-node-blocks"),
            seekInfo("deliver-seek-beyond-height-fail-if-not-ready"));
    Fuzzer.of("orderer SeekInfo range", samples)
        .inputs(5_000)
        .run(
            (bytes, random) -> {
              SeekInfo seek;
              try {
                seek = SeekInfo.parseFrom(bytes);
              } catch (InvalidProtocolBufferException e) {
                return false;
              }
              long height = 1 + random.nextLong(1L << 40);
              SeekResolution resolved = SeekRange.resolve(seek, height);
              if (resolved instanceof SeekResolution.Blocks(SeekRange range)) {
                assertThat(Long.compareUnsigned(range.start(), height)).isLessThanOrEqualTo(0);
                return true;
              }
              return false;
            });
  }

  private static byte[] seekInfo(String envelope) {
    try {
      return Payload.parseFrom(Fixtures.envelope(envelope).getPayload()).getData().toByteArray();
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Fuzzes {@code check} with envelopes grown from {@code samples}; bytes gRPC would not parse into
   * an Envelope never reach it, as they never reach the service.
   */
  private static void fuzzEnvelopes(String target, List<byte[]> samples, EnvelopeCheck check) {
    Fuzzer.of(target, samples)
        .inputs(3_000)
        .run(
            (bytes, random) -> {
              Optional<Envelope> envelope = FixtureValidators.parse(bytes);
              return envelope.isPresent() && check.accept(envelope.get(), random);
            });
  }

  /** A check of one parsed envelope: whether it was accepted. */
  @FunctionalInterface
  private interface EnvelopeCheck {
    boolean accept(Envelope envelope, RandomGenerator random);
  }
}
