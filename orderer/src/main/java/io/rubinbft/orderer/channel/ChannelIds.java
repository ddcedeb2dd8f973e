package io.rubinbft.orderer.channel;

import java.util.Optional;
import java.util.regex.Pattern;

/** Fabric's channel id rule: lower-case letter first, then {@code [a-z0-9.-]}, 249 at most. */
public final class ChannelIds {

  private static final int MAX_LENGTH = 249;
  private static final Pattern VALID = Pattern.compile("[a-z][a-z0-9.-]*");

  private ChannelIds() {}

  /** Why {@code id} is not a valid channel id, or empty if it is. */
  public static Optional<String> invalidReason(String id) {
    if (id.isEmpty()) {
      return Optional.of("channel ID illegal, cannot be empty");
    }
    if (id.length() > MAX_LENGTH) {
      return Optional.of("channel ID illegal, cannot be longer than " + MAX_LENGTH);
    }
    if (!VALID.matcher(id).matches()) {
      return Optional.of("'" + id + "' contains illegal characters, allowed are [a-z][a-z0-9.-]*");
    }
    return Optional.empty();
  }
}
