package io.rubinbft.orderer.configtx;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import org.hyperledger.fabric.protos.common.ConfigGroup;
import org.hyperledger.fabric.protos.common.ConfigPolicy;
import org.hyperledger.fabric.protos.common.ConfigValue;

/**
 * A config tree flattened into its elements by {@link ConfigElement#fullKey()} (Fabric's
 * configMap), and back. Keys are sorted, so every walk over a map is in the same order on every
 * replica.
 */
final class ConfigMap {

  /** The name of the root group of every channel config. */
  static final String ROOT = "Channel";

  private ConfigMap() {}

  /**
   * The elements of the tree rooted at {@code root}, named {@link #ROOT}.
   *
   * @throws ConfigUpdateException when a name in the tree is not a legal config id
   */
  static NavigableMap<String, ConfigElement> of(ConfigGroup root) throws ConfigUpdateException {
    NavigableMap<String, ConfigElement> elements = new TreeMap<>();
    addGroup(elements, List.of(), ROOT, root);
    return elements;
  }

  private static void addGroup(
      Map<String, ConfigElement> elements, List<String> path, String key, ConfigGroup group)
      throws ConfigUpdateException {
    add(elements, ConfigElement.group(path, key, group));
    List<String> inner = new ArrayList<>(path);
    inner.add(key);
    for (Map.Entry<String, ConfigGroup> child : group.getGroupsMap().entrySet()) {
      addGroup(elements, inner, child.getKey(), child.getValue());
    }
    for (Map.Entry<String, ConfigValue> value : group.getValuesMap().entrySet()) {
      add(elements, ConfigElement.value(inner, value.getKey(), value.getValue()));
    }
    for (Map.Entry<String, ConfigPolicy> policy : group.getPoliciesMap().entrySet()) {
      add(elements, ConfigElement.policy(inner, policy.getKey(), policy.getValue()));
    }
  }

  private static void add(Map<String, ConfigElement> elements, ConfigElement element)
      throws ConfigUpdateException {
    Optional<String> invalid = ConfigIds.invalidReason(element.key());
    if (invalid.isPresent()) {
      throw ConfigUpdateException.badRequest(invalid.get());
    }
    elements.put(element.fullKey(), element);
  }

  /**
   * The tree the elements describe (Fabric's configMapToConfig): each group keeps its own fields
   * and takes its members, by the names it lists, from the map.
   *
   * @throws ConfigUpdateException when a group lists a member the map lacks
   */
  static ConfigGroup toTree(Map<String, ConfigElement> elements) throws ConfigUpdateException {
    return rebuild(elements, List.of(ROOT));
  }

  private static ConfigGroup rebuild(Map<String, ConfigElement> elements, List<String> path)
      throws ConfigUpdateException {
    String base = "/" + String.join("/", path);
    ConfigGroup group = (ConfigGroup) lookup(elements, ConfigElement.Kind.GROUP, base).element();
    ConfigGroup.Builder rebuilt = group.toBuilder();
    for (String name : group.getGroupsMap().keySet()) {
      List<String> inner = new ArrayList<>(path);
      inner.add(name);
      rebuilt.putGroups(name, rebuild(elements, inner));
    }
    for (String name : group.getValuesMap().keySet()) {
      rebuilt.putValues(
          name,
          (ConfigValue) lookup(elements, ConfigElement.Kind.VALUE, base + "/" + name).element());
    }
    for (String name : group.getPoliciesMap().keySet()) {
      rebuilt.putPolicies(
          name,
          (ConfigPolicy) lookup(elements, ConfigElement.Kind.POLICY, base + "/" + name).element());
    }
    return rebuilt.build();
  }

  private static ConfigElement lookup(
      Map<String, ConfigElement> elements, ConfigElement.Kind kind, String path)
      throws ConfigUpdateException {
    String key = ConfigElement.keyOf(kind, path);
    ConfigElement element = elements.get(key);
    if (element == null) {
      throw ConfigUpdateException.badRequest(
          "missing " + kind.name().toLowerCase(Locale.ROOT) + " at path: " + key);
    }
    return element;
  }
}
