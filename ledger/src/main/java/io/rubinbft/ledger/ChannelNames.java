package io.rubinbft.ledger;

import java.util.Optional;
import java.util.regex.Pattern;

/** Fabric's rule for channel names (configtx's {@code ValidateChannelID}). */
final class ChannelNames {

  private static final Pattern VALID = Pattern.compile("[a-z][a-z0-9.-]*");
  private static final int MAX_LENGTH = 249;

  private ChannelNames() {}

  static Optional<String> invalidReason(String name) {
    if (name.isEmpty() || name.length() > MAX_LENGTH) {
      return Optional.of(
          "channel name has " + name.length() + " characters, not 1 to " + MAX_LENGTH);
    }
    if (!VALID.matcher(name).matches()) {
      return Optional.of(
          "channel name '"
              + name
              + "' must start with a lowercase letter and contain only [a-z0-9.-]");
    }
    return Optional.empty();
  }
}
