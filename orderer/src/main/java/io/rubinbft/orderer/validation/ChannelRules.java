package io.rubinbft.orderer.validation;

import io.rubinbft.orderer.channel.ConfigBlockReader;
import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.crypto.EcdsaVerifier;
import io.rubinbft.orderer.msp.ChannelMsps;
import io.rubinbft.orderer.msp.MspConfigException;
import io.rubinbft.orderer.policy.ChannelPolicies;
import io.rubinbft.orderer.policy.PolicyConfigException;
import io.rubinbft.orderer.policy.PolicyPaths;
import io.rubinbft.orderer.policy.SignerVerifier;
import org.hyperledger.fabric.protos.common.Config;

/**
 * What envelope validation needs from a channel's current config.
 *
 * @param msps the channel's MSPs (identity deserialization, expiry)
 * @param policies the channel's policy tree (/Channel/Writers, /Channel/Readers), built on {@code
 *     msps}
 * @param absoluteMaxBytes {@code BatchSize.AbsoluteMaxBytes}: the largest payload Broadcast accepts
 * @param maintenance whether the config puts the channel in maintenance mode ({@link
 *     io.rubinbft.orderer.channel.ChannelConfig#inMaintenance()}): normal transactions are refused,
 *     Broadcast checks /Channel/Orderer/Writers and Deliver /Channel/Orderer/Readers, as Fabric's
 *     StandardChannel and SigFilter do
 * @param follower whether this node follows the channel instead of ordering it: Deliver then serves
 *     only the channel's orderers (/Channel/Orderer/Readers), which may need a removed consenter's
 *     blocks to catch up, and answers everyone else NOT_FOUND, as Fabric's follower (whose Deliver
 *     finds no chain) answers everyone
 */
public record ChannelRules(
    ChannelMsps msps,
    ChannelPolicies policies,
    long absoluteMaxBytes,
    boolean maintenance,
    boolean follower) {

  public ChannelRules {
    if (absoluteMaxBytes <= 0) {
      throw new IllegalArgumentException(
          "AbsoluteMaxBytes must be positive, got " + absoluteMaxBytes);
    }
  }

  /** Rules of a channel in normal (not maintenance) mode. */
  public ChannelRules(ChannelMsps msps, ChannelPolicies policies, long absoluteMaxBytes) {
    this(msps, policies, absoluteMaxBytes, false);
  }

  /** Rules of a channel this node orders. */
  public ChannelRules(
      ChannelMsps msps, ChannelPolicies policies, long absoluteMaxBytes, boolean maintenance) {
    this(msps, policies, absoluteMaxBytes, maintenance, false);
  }

  /** The same rules for a channel this node follows. */
  public ChannelRules asFollower() {
    return new ChannelRules(msps, policies, absoluteMaxBytes, maintenance, true);
  }

  /** The policy Broadcast's signature check evaluates: Fabric's SigFilter's choice. */
  String writersPolicy() {
    return maintenance ? PolicyPaths.ORDERER_WRITERS : PolicyPaths.CHANNEL_WRITERS;
  }

  /**
   * The policy Deliver's signature check evaluates: Fabric's SigFilter's choice, and the orderers'
   * on a channel this node follows.
   */
  public String readersPolicy() {
    return maintenance || follower ? PolicyPaths.ORDERER_READERS : PolicyPaths.CHANNEL_READERS;
  }

  /**
   * The MSPs and policies of {@code config}, built once per config (a new config builds new rules).
   *
   * @param absoluteMaxBytes the config's {@code BatchSize.AbsoluteMaxBytes}
   */
  public static ChannelRules fromConfig(
      Config config, CryptoProvider provider, long absoluteMaxBytes, int identityCacheCapacity)
      throws MspConfigException, PolicyConfigException {
    ChannelMsps msps = ChannelMsps.fromConfig(config, provider, identityCacheCapacity);
    ChannelPolicies policies =
        ChannelPolicies.fromConfig(config, new SignerVerifier(msps, new EcdsaVerifier(provider)));
    return new ChannelRules(
        msps, policies, absoluteMaxBytes, ConfigBlockReader.inMaintenance(config));
  }
}
