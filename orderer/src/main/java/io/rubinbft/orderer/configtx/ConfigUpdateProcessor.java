package io.rubinbft.orderer.configtx;

import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.channel.ConfigBlockReader;
import io.rubinbft.orderer.channel.InvalidConfigException;
import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.msp.ChannelMsps;
import io.rubinbft.orderer.msp.MspConfigException;
import io.rubinbft.orderer.policy.ChannelPolicies;
import io.rubinbft.orderer.policy.PolicyConfigException;
import io.rubinbft.orderer.validation.BroadcastValidator;
import io.rubinbft.orderer.validation.ChannelRules;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.Config;
import org.hyperledger.fabric.protos.common.ConfigEnvelope;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.orderer.ConsensusType;

/**
 * Fabric's ProcessConfigUpdateMsg for one channel config: a submitted CONFIG_UPDATE envelope (its
 * outer signature already checked against /Channel/Writers at Broadcast) becomes the signed CONFIG
 * envelope to order, or is refused with Fabric's status and message ("error applying config update
 * to existing channel 'ch': error authorizing update: ..."). The resulting config must be one this
 * orderer can run: a BFT config that {@link ConfigBlockReader} accepts, MSPs and policies that
 * build, a consenter set that {@link ConsenterChangeRules} accepts, and a maintenance-mode
 * transition that {@link MaintenanceRules} accepts.
 */
public final class ConfigUpdateProcessor {

  private final ChannelConfig current;
  private final ConfigUpdateValidator validator;
  private final CryptoProvider provider;

  private ConfigUpdateProcessor(
      ChannelConfig current, ConfigUpdateValidator validator, CryptoProvider provider) {
    this.current = current;
    this.validator = validator;
    this.provider = provider;
  }

  /**
   * @param policies the policies of {@code current}
   * @throws ConfigUpdateException when {@code current} holds an element name Fabric forbids
   */
  public static ConfigUpdateProcessor of(
      ChannelConfig current, ChannelPolicies policies, CryptoProvider provider)
      throws ConfigUpdateException {
    return new ConfigUpdateProcessor(
        current,
        ConfigUpdateValidator.of(current.channelId(), current.config(), policies),
        provider);
  }

  /** The config updates are applied to. */
  public ChannelConfig current() {
    return current;
  }

  /**
   * The ConfigEnvelope {@code update} leads to: the next config and, as {@code last_update}, the
   * update exactly as submitted.
   */
  public ConfigEnvelope propose(Envelope update) throws ConfigUpdateException {
    ConfigUpdateEnvelopes read;
    Config next;
    try {
      read = ConfigUpdateEnvelopes.read(update);
      next = validator.apply(read.update(), read.signatures());
    } catch (ConfigUpdateException e) {
      throw e.wrap(applyingFailed());
    }
    Optional<ConsensusType> nextType = MaintenanceRules.consensusType(next);
    if (nextType.isPresent() && MaintenanceRules.changesType(current, nextType.get())) {
      // Fabric builds a bundle of any type and its maintenance filter refuses the change; a
      // config of another type does not parse here, so the filter's answer comes first.
      MaintenanceRules.check(current, nextType.get(), read.update());
    }
    try {
      checkServable(next);
    } catch (ConfigUpdateException e) {
      throw e.wrap(applyingFailed());
    }
    MaintenanceRules.check(current, nextType.orElseThrow(), read.update());
    return ConfigEnvelope.newBuilder().setConfig(next).setLastUpdate(update).build();
  }

  /**
   * The signed CONFIG envelope for {@code update}, checked against AbsoluteMaxBytes as Fabric
   * re-applies its filters to the envelope it made ("did not pass final checks").
   */
  public Envelope process(Envelope update, ConfigEnvelopeSigner signer)
      throws ConfigUpdateException {
    Envelope config = signer.sign(current.channelId(), propose(update));
    Optional<String> tooLarge =
        BroadcastValidator.sizeProblem(config, current.batchLimits().absoluteMaxBytes());
    if (tooLarge.isPresent()) {
      throw ConfigUpdateException.badRequest(
          "config update for existing channel did not pass final checks: " + tooLarge.get());
    }
    return config;
  }

  private String applyingFailed() {
    return "error applying config update to existing channel '" + current.channelId() + "'";
  }

  private void checkServable(Config next) throws ConfigUpdateException {
    ChannelConfig parsed;
    ChannelRules rules;
    try {
      parsed = ConfigBlockReader.readConfig(current.channelId(), current.blockNumber(), next);
      rules =
          ChannelRules.fromConfig(
              next,
              provider,
              parsed.batchLimits().absoluteMaxBytes(),
              ChannelMsps.DEFAULT_CACHE_CAPACITY);
    } catch (MspConfigException e) {
      // Fabric's bundle creation fails so: no config with an MSP it cannot set up is ordered.
      throw ConfigUpdateException.badRequest(
          "initializing channelconfig failed: " + e.getMessage());
    } catch (InvalidConfigException | PolicyConfigException e) {
      throw ConfigUpdateException.badRequest("config update is not compatible: " + e.getMessage());
    }
    ConsenterChangeRules.check(current.consenters(), parsed.consenters(), next, rules.msps());
  }
}
