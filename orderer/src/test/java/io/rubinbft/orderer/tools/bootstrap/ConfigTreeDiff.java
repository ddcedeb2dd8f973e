package io.rubinbft.orderer.tools.bootstrap;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.hyperledger.fabric.protos.common.ConfigGroup;

/**
 * Names every place where two config group trees differ, by path ("/Channel/Orderer/BatchSize").
 */
final class ConfigTreeDiff {

  private ConfigTreeDiff() {}

  static List<String> between(ConfigGroup ours, ConfigGroup theirs) {
    List<String> differences = new ArrayList<>();
    compare("/Channel", ours, theirs, differences);
    return differences;
  }

  private static void compare(
      String path, ConfigGroup ours, ConfigGroup theirs, List<String> differences) {
    if (!ours.getModPolicy().equals(theirs.getModPolicy())
        || ours.getVersion() != theirs.getVersion()) {
      differences.add(path + ": mod_policy or version");
    }
    for (String key : union(ours.getValuesMap().keySet(), theirs.getValuesMap().keySet())) {
      if (!ours.getValuesMap().containsKey(key) || !theirs.getValuesMap().containsKey(key)) {
        differences.add(path + "/" + key + ": value only on one side");
      } else if (!ours.getValuesMap().get(key).equals(theirs.getValuesMap().get(key))) {
        differences.add(path + "/" + key + ": value differs");
      }
    }
    for (String key : union(ours.getPoliciesMap().keySet(), theirs.getPoliciesMap().keySet())) {
      if (!ours.getPoliciesMap().containsKey(key) || !theirs.getPoliciesMap().containsKey(key)) {
        differences.add(path + "/" + key + ": policy only on one side");
      } else if (!ours.getPoliciesMap().get(key).equals(theirs.getPoliciesMap().get(key))) {
        differences.add(path + "/" + key + ": policy differs");
      }
    }
    for (String key : union(ours.getGroupsMap().keySet(), theirs.getGroupsMap().keySet())) {
      if (!ours.getGroupsMap().containsKey(key) || !theirs.getGroupsMap().containsKey(key)) {
        differences.add(path + "/" + key + ": group only on one side");
      } else {
        compare(
            path + "/" + key,
            ours.getGroupsMap().get(key),
            theirs.getGroupsMap().get(key),
            differences);
      }
    }
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> all = new TreeSet<>(a);
    all.addAll(b);
    return all;
  }
}
