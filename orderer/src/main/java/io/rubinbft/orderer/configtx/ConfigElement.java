package io.rubinbft.orderer.configtx;

import com.google.protobuf.Message;
import java.util.ArrayList;
import java.util.List;
import org.hyperledger.fabric.protos.common.ConfigGroup;
import org.hyperledger.fabric.protos.common.ConfigPolicy;
import org.hyperledger.fabric.protos.common.ConfigValue;

/**
 * One element of a config tree (Fabric's configtx "comparable"): a group, value or policy at a
 * path. A group element carries its whole subtree, but only its own version, mod_policy and the
 * names of its members count; the members are elements of their own.
 *
 * @param kind group, value or policy
 * @param path the names of the groups above it, from "Channel" down
 * @param key its own name
 * @param element the ConfigGroup, ConfigValue or ConfigPolicy
 */
record ConfigElement(Kind kind, List<String> path, String key, Message element) {

  /** The three element kinds, with the prefixes Fabric writes in front of their paths. */
  enum Kind {
    GROUP("[Group]  "),
    VALUE("[Value]  "),
    POLICY("[Policy] ");

    private final String prefix;

    Kind(String prefix) {
      this.prefix = prefix;
    }
  }

  ConfigElement {
    path = List.copyOf(path);
  }

  static ConfigElement group(List<String> path, String key, ConfigGroup group) {
    return new ConfigElement(Kind.GROUP, path, key, group);
  }

  static ConfigElement value(List<String> path, String key, ConfigValue value) {
    return new ConfigElement(Kind.VALUE, path, key, value);
  }

  static ConfigElement policy(List<String> path, String key, ConfigPolicy policy) {
    return new ConfigElement(Kind.POLICY, path, key, policy);
  }

  /** Fabric's map key, e.g. {@code [Value] /Channel/Orderer/BatchSize}. */
  String fullKey() {
    return keyOf(kind, "/" + String.join("/", pathWithKey()));
  }

  /** The map key of the element of {@code kind} at {@code path} ("/Channel/Orderer"). */
  static String keyOf(Kind kind, String path) {
    return kind.prefix + path;
  }

  /** The path of the element itself: {@code path} and then {@code key}. */
  List<String> pathWithKey() {
    List<String> full = new ArrayList<>(path);
    full.add(key);
    return full;
  }

  long version() {
    return switch (element) {
      case ConfigGroup group -> group.getVersion();
      case ConfigValue value -> value.getVersion();
      case ConfigPolicy policy -> policy.getVersion();
      default -> throw new IllegalStateException("not a config element: " + element.getClass());
    };
  }

  String modPolicy() {
    return switch (element) {
      case ConfigGroup group -> group.getModPolicy();
      case ConfigValue value -> value.getModPolicy();
      case ConfigPolicy policy -> policy.getModPolicy();
      default -> throw new IllegalStateException("not a config element: " + element.getClass());
    };
  }

  /**
   * The full path of the policy that guards changes to this element, as Fabric's policyForItem
   * resolves it: an absolute mod_policy as is; a relative one below the group the element belongs
   * to, which for a group is the group itself.
   */
  String modPolicyPath() {
    String modPolicy = modPolicy();
    if (modPolicy.startsWith("/")) {
      return modPolicy;
    }
    List<String> manager = kind == Kind.GROUP ? pathWithKey() : path;
    return "/" + String.join("/", manager) + "/" + modPolicy;
  }
}
