package io.rubinbft.orderer.configtx;

import java.util.Optional;
import java.util.regex.Pattern;

/** Fabric's rules for the names of config groups, values and policies, and for mod_policy paths. */
final class ConfigIds {

  private static final int MAX_LENGTH = 249;
  private static final Pattern LEGAL = Pattern.compile("[a-zA-Z0-9.\\-_]+");

  private ConfigIds() {}

  /** Why {@code id} is not a legal config element name, or empty. */
  static Optional<String> invalidReason(String id) {
    if (id.isEmpty()) {
      return Optional.of("config ID illegal, cannot be empty");
    }
    if (id.length() > MAX_LENGTH) {
      return Optional.of("config ID illegal, cannot be longer than " + MAX_LENGTH);
    }
    if (id.equals(".") || id.equals("..")) {
      return Optional.of("config ID '" + id + "' is invalid");
    }
    if (!LEGAL.matcher(id).matches()) {
      return Optional.of("config ID '" + id + "' contains illegal characters");
    }
    return Optional.empty();
  }

  /** Why {@code modPolicy} is not a usable policy reference (relative or absolute), or empty. */
  static Optional<String> invalidModPolicy(String modPolicy) {
    if (modPolicy.isEmpty()) {
      return Optional.of("mod_policy not set");
    }
    String trimmed = modPolicy.startsWith("/") ? modPolicy.substring(1) : modPolicy;
    String[] elements = trimmed.split("/", -1);
    for (int i = 0; i < elements.length; i++) {
      Optional<String> invalid = invalidReason(elements[i]);
      if (invalid.isPresent()) {
        return Optional.of("path element at " + i + " is invalid: " + invalid.get());
      }
    }
    return Optional.empty();
  }
}
