package io.rubinbft.orderer.validation;

import io.rubinbft.orderer.msp.ChannelMsps;
import io.rubinbft.orderer.policy.ChannelPolicies;

/**
 * What envelope validation needs from a channel's current config.
 *
 * @param msps the channel's MSPs (identity deserialization, expiry)
 * @param policies the channel's policy tree (/Channel/Writers, /Channel/Readers), built on {@code
 *     msps}
 * @param absoluteMaxBytes {@code BatchSize.AbsoluteMaxBytes}: the largest payload Broadcast accepts
 */
public record ChannelRules(ChannelMsps msps, ChannelPolicies policies, long absoluteMaxBytes) {

  public ChannelRules {
    if (absoluteMaxBytes <= 0) {
      throw new IllegalArgumentException(
          "AbsoluteMaxBytes must be positive, got " + absoluteMaxBytes);
    }
  }
}
