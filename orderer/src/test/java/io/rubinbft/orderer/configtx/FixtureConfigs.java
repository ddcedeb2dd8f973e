package io.rubinbft.orderer.configtx;

import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.channel.ConfigBlockReader;
import io.rubinbft.orderer.channel.InvalidConfigException;
import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.crypto.Fixtures;
import io.rubinbft.orderer.msp.ChannelMsps;
import io.rubinbft.orderer.msp.MspConfigException;
import io.rubinbft.orderer.policy.ChannelPolicies;
import io.rubinbft.orderer.policy.PolicyConfigException;
import io.rubinbft.orderer.validation.ChannelRules;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.Envelope;

/**
 * The fixture channel's configs as Fabric's orderers made them: block 0 (genesis, sequence 0),
 * block 6 (BatchSize update, sequence 1), block 7 (anchor peer update, sequence 2).
 */
final class FixtureConfigs {

  static final CryptoProvider PROVIDER = CryptoProvider.preferNative();

  private FixtureConfigs() {}

  static ChannelConfig config(int block) {
    try {
      return ConfigBlockReader.read(Fixtures.block(block));
    } catch (InvalidConfigException e) {
      throw new IllegalStateException(e);
    }
  }

  static ChannelPolicies policies(ChannelConfig config) {
    try {
      return ChannelRules.fromConfig(
              config.config(),
              PROVIDER,
              config.batchLimits().absoluteMaxBytes(),
              ChannelMsps.DEFAULT_CACHE_CAPACITY)
          .policies();
    } catch (MspConfigException | PolicyConfigException e) {
      throw new IllegalStateException(e);
    }
  }

  static ConfigUpdateProcessor processor(ChannelConfig config) {
    try {
      return ConfigUpdateProcessor.of(config, policies(config), PROVIDER);
    } catch (ConfigUpdateException e) {
      throw new IllegalStateException(e);
    }
  }

  static ConfigTransactionCheck check(ChannelConfig config) {
    return new ConfigTransactionCheck(processor(config), policies(config));
  }

  /** A submitted update from {@code config-update/}, e.g. "batchsize-update". */
  static Envelope update(String name) {
    try {
      return Envelope.parseFrom(Fixtures.bytes("config-update/" + name + ".envelope"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The CONFIG envelope Fabric ordered in block {@code number}. */
  static Envelope configEnvelope(int number) {
    Block block = Fixtures.block(number);
    try {
      return Envelope.parseFrom(block.getData().getData(0));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
