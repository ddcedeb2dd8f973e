package io.rubinbft.orderer.validation;

import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.orderer.crypto.Fixtures;
import io.rubinbft.orderer.crypto.Sha256;
import io.rubinbft.orderer.msp.MspConfigException;
import io.rubinbft.orderer.policy.GenesisChannel;
import io.rubinbft.orderer.policy.PolicyConfigException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.Envelope;

/**
 * What the tests that feed the validators bytes no client would send (fuzzed, mutated) check them
 * with: the validators of the fixture channel's genesis config at the time its envelopes were
 * recorded, and envelopes parsed as gRPC parses them.
 */
final class FuzzedEnvelopes {

  private static final Instant NOW = Instant.parse("2026-11-21T05:23:23Z");
  private static final Map<String, ChannelRules> CHANNELS = Map.of("fixture", rules());

  private FuzzedEnvelopes() {}

  static BroadcastValidator broadcastValidator() {
    return new BroadcastValidator(
        id -> Optional.ofNullable(CHANNELS.get(id)), Clock.fixed(NOW, ZoneOffset.UTC));
  }

  static DeliverValidator deliverValidator() {
    return new DeliverValidator(
        id -> Optional.ofNullable(CHANNELS.get(id)),
        Clock.fixed(NOW, ZoneOffset.UTC),
        DeliverValidator.DEFAULT_TIME_WINDOW,
        false,
        new Sha256(GenesisChannel.PROVIDER));
  }

  /** What gRPC's protobuf marshaller does with a message's bytes before the service sees it. */
  static Optional<Envelope> parse(byte[] bytes) {
    try {
      return Optional.of(Envelope.parseFrom(bytes));
    } catch (InvalidProtocolBufferException e) {
      return Optional.empty();
    }
  }

  private static ChannelRules rules() {
    try {
      return ChannelRules.fromConfig(
          Fixtures.genesisConfig(), GenesisChannel.PROVIDER, 10_485_760, 64);
    } catch (MspConfigException | PolicyConfigException e) {
      throw new IllegalStateException(e);
    }
  }
}
