package io.rubinbft.orderer.consensus;

import io.rubinbft.orderer.block.EnvelopeHeaders;
import io.rubinbft.orderer.block.EnvelopeValidator;
import io.rubinbft.orderer.block.ProposalChain;
import io.rubinbft.orderer.block.ProposedBlockVerifier;
import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.channel.InvalidConfigException;
import io.rubinbft.orderer.configtx.ConfigTransactionCheck;
import io.rubinbft.orderer.configtx.ConfigUpdateException;
import io.rubinbft.orderer.configtx.ConfigUpdateProcessor;
import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.crypto.Sha256;
import io.rubinbft.orderer.msp.MspConfigException;
import io.rubinbft.orderer.policy.PolicyConfigException;
import io.rubinbft.orderer.validation.ChannelRules;
import java.time.Clock;
import java.util.Optional;

/**
 * One channel config and everything checked under it: the rules Broadcast and Deliver apply, the
 * config update processor, and the envelope checks of a backup's proposal check (CONFIG envelopes
 * re-derived from their last update, others validated as at Broadcast). Envelopes already found
 * valid under this config, at ingress or in an earlier check, are not verified again.
 *
 * @param config the config
 * @param rules its MSPs and policies
 * @param processor applies config updates to it
 * @param verified envelopes found valid under this config
 * @param proposals the block check with this config's envelope checks
 */
public record ConfigState(
    ChannelConfig config,
    ChannelRules rules,
    ConfigUpdateProcessor processor,
    VerifiedEnvelopes verified,
    ProposedBlockVerifier proposals,
    EnvelopeValidator envelopes)
    implements ProposalChain.Rules {

  /**
   * Builds states as this node needs them: rules with an identity cache of {@code identityCache}
   * entries, and up to {@code verifiedCapacity} envelopes remembered as valid per config.
   *
   * @param clock certificate expiry, as at Broadcast
   */
  public static ConfigStates.Factory factory(
      CryptoProvider provider, Clock clock, int identityCache, int verifiedCapacity) {
    return factory(provider, clock, identityCache, verifiedCapacity, true);
  }

  /**
   * As {@link #factory(CryptoProvider, Clock, int, int)}, with creators' expiry checked or not
   * (Fabric's {@code General.Authentication.NoExpirationChecks}).
   */
  public static ConfigStates.Factory factory(
      CryptoProvider provider,
      Clock clock,
      int identityCache,
      int verifiedCapacity,
      boolean expirationChecks) {
    return config -> {
      try {
        ChannelRules rules =
            ChannelRules.fromConfig(
                config.config(), provider, config.batchLimits().absoluteMaxBytes(), identityCache);
        ConfigUpdateProcessor processor =
            ConfigUpdateProcessor.of(config, rules.policies(), provider);
        VerifiedEnvelopes verified = new VerifiedEnvelopes(new Sha256(provider), verifiedCapacity);
        return of(
            config,
            rules,
            processor,
            verified,
            BroadcastEnvelopeChecks.of(rules, clock, verified, expirationChecks));
      } catch (MspConfigException | PolicyConfigException | ConfigUpdateException e) {
        throw new InvalidConfigException(
            "channel '" + config.channelId() + "': " + e.getMessage(), e);
      }
    };
  }

  /** Builds the envelope checks over {@code config}'s rules and processor. */
  static ConfigState of(
      ChannelConfig config,
      ChannelRules rules,
      ConfigUpdateProcessor processor,
      VerifiedEnvelopes verified,
      EnvelopeValidator ordinaryEnvelopes) {
    ConfigTransactionCheck configCheck = new ConfigTransactionCheck(processor, rules.policies());
    EnvelopeValidator envelopes =
        envelope -> {
          if (verified.contains(envelope)) {
            return Optional.empty();
          }
          Optional<String> reason =
              EnvelopeHeaders.isConfigEnvelope(envelope)
                  ? configCheck.invalidReason(envelope)
                  : ordinaryEnvelopes.invalidReason(envelope);
          if (reason.isEmpty()) {
            verified.add(envelope);
          }
          return reason;
        };
    return new ConfigState(
        config, rules, processor, verified, new ProposedBlockVerifier(envelopes), envelopes);
  }
}
