package io.rubinbft.orderer.bootstrap;

import java.util.regex.Pattern;

/** Fabric's rule for channel names. */
final class ChannelNames {

  /** Fabric's {@code configtx.ValidateChannelID}: lower case, starts with a letter, < 250 chars. */
  private static final Pattern VALID = Pattern.compile("[a-z][a-z0-9.-]{0,248}");

  private ChannelNames() {}

  static void check(String channelId) {
    if (!VALID.matcher(channelId).matches()) {
      throw new IllegalArgumentException(
          "channel name '"
              + channelId
              + "' is not valid: Fabric wants [a-z][a-z0-9.-]*, at most 249 characters");
    }
  }
}
