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
 * The validators of the fixture channel (the channel of the recorded envelopes) as the validation
 * tests build them, and envelopes parsed as gRPC parses them.
 */
final class FixtureValidators {

  /** The stale request's timestamp (05:03:23Z) + 20 minutes: when Fabric was asked. */
  static final Instant NOW = Instant.parse("2026-11-21T05:23:23Z");

  /** The fixture channel's rules, read from its genesis config. */
  static final ChannelRules RULES = rules();

  private FixtureValidators() {}

  /** Broadcast's validator of the fixture channel under {@code rules} at {@code now}. */
  static BroadcastValidator broadcast(ChannelRules rules, Instant now) {
    Map<String, ChannelRules> channels = Map.of("fixture", rules);
    return new BroadcastValidator(
        id -> Optional.ofNullable(channels.get(id)), Clock.fixed(now, ZoneOffset.UTC));
  }

  /** Broadcast's validator of the fixture channel under its genesis config, at {@link #NOW}. */
  static BroadcastValidator broadcast() {
    return broadcast(RULES, NOW);
  }

  /** Deliver's validator of the fixture channel under {@code rules} at {@code now}. */
  static DeliverValidator deliver(ChannelRules rules, Instant now, boolean mutualTls) {
    Map<String, ChannelRules> channels = Map.of("fixture", rules);
    return new DeliverValidator(
        id -> Optional.ofNullable(channels.get(id)),
        Clock.fixed(now, ZoneOffset.UTC),
        DeliverValidator.DEFAULT_TIME_WINDOW,
        mutualTls,
        new Sha256(GenesisChannel.PROVIDER));
  }

  /** Deliver's validator of the fixture channel under its genesis config, at {@link #NOW}. */
  static DeliverValidator deliver() {
    return deliver(RULES, NOW, false);
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
