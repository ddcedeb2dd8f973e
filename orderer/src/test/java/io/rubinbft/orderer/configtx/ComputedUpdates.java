package io.rubinbft.orderer.configtx;

import java.util.Map;
import org.hyperledger.fabric.protos.common.Config;
import org.hyperledger.fabric.protos.common.ConfigGroup;
import org.hyperledger.fabric.protos.common.ConfigPolicy;
import org.hyperledger.fabric.protos.common.ConfigUpdate;
import org.hyperledger.fabric.protos.common.ConfigValue;

/**
 * The ConfigUpdate that turns one channel config into another, computed as Fabric's {@code
 * configtxlator compute_update} computes it: the read set names, at their current versions, the
 * groups the change goes through and the unchanged members of any group whose membership or
 * mod_policy changes; the write set carries each changed policy and value at its version + 1, new
 * members at version 0, and a group whose membership or mod_policy changes at version + 1. Sign the
 * result with {@link SignedUpdates}: the signers must satisfy the mod_policy of every changed
 * element (e.g. the orderer admin for /Channel/Orderer values, an org's admin for its own group, a
 * majority of the application orgs' admins to add or remove an application org).
 */
public final class ComputedUpdates {

  private ComputedUpdates() {}

  /**
   * @throws IllegalArgumentException when the two configs do not differ
   */
  public static ConfigUpdate compute(String channelId, Config original, Config updated) {
    Delta channel = group(original.getChannelGroup(), updated.getChannelGroup());
    if (!channel.changed()) {
      throw new IllegalArgumentException(
          "no differences detected between original and updated config");
    }
    return ConfigUpdate.newBuilder()
        .setChannelId(channelId)
        .setReadSet(channel.read())
        .setWriteSet(channel.write())
        .build();
  }

  /** A group's part of the read and write sets, and whether anything under it changed. */
  private record Delta(ConfigGroup read, ConfigGroup write, boolean changed) {}

  private static Delta group(ConfigGroup original, ConfigGroup updated) {
    ConfigGroup.Builder read = ConfigGroup.newBuilder().setVersion(original.getVersion());
    ConfigGroup.Builder write = ConfigGroup.newBuilder().setVersion(original.getVersion());
    ConfigGroup.Builder same = ConfigGroup.newBuilder();
    boolean membersChanged = policies(original, updated, write, same);
    membersChanged |= values(original, updated, write, same);
    membersChanged |= groups(original, updated, read, write, same);
    boolean reshaped = membersChanged || !original.getModPolicy().equals(updated.getModPolicy());
    if (!reshaped) {
      boolean changed =
          write.getPoliciesCount() + write.getValuesCount() + write.getGroupsCount() > 0
              || read.getGroupsCount() > 0;
      return new Delta(read.build(), write.build(), changed);
    }
    // The group itself changes: its unchanged members are read and written at their versions.
    read.putAllPolicies(same.getPoliciesMap()).putAllValues(same.getValuesMap());
    read.putAllGroups(same.getGroupsMap());
    write.putAllPolicies(same.getPoliciesMap()).putAllValues(same.getValuesMap());
    write.putAllGroups(same.getGroupsMap());
    write.setVersion(original.getVersion() + 1).setModPolicy(updated.getModPolicy());
    return new Delta(read.build(), write.build(), true);
  }

  /** Puts changed policies into {@code write}, unchanged ones into {@code same}. */
  private static boolean policies(
      ConfigGroup original,
      ConfigGroup updated,
      ConfigGroup.Builder write,
      ConfigGroup.Builder same) {
    boolean membersChanged = false;
    for (Map.Entry<String, ConfigPolicy> entry : original.getPoliciesMap().entrySet()) {
      ConfigPolicy before = entry.getValue();
      ConfigPolicy after = updated.getPoliciesMap().get(entry.getKey());
      if (after == null) {
        membersChanged = true;
      } else if (before.getModPolicy().equals(after.getModPolicy())
          && before.getPolicy().equals(after.getPolicy())) {
        same.putPolicies(
            entry.getKey(), ConfigPolicy.newBuilder().setVersion(before.getVersion()).build());
      } else {
        write.putPolicies(entry.getKey(), changed(after, before.getVersion() + 1));
      }
    }
    for (Map.Entry<String, ConfigPolicy> entry : updated.getPoliciesMap().entrySet()) {
      if (!original.containsPolicies(entry.getKey())) {
        membersChanged = true;
        write.putPolicies(entry.getKey(), changed(entry.getValue(), 0));
      }
    }
    return membersChanged;
  }

  /** Puts changed values into {@code write}, unchanged ones into {@code same}. */
  private static boolean values(
      ConfigGroup original,
      ConfigGroup updated,
      ConfigGroup.Builder write,
      ConfigGroup.Builder same) {
    boolean membersChanged = false;
    for (Map.Entry<String, ConfigValue> entry : original.getValuesMap().entrySet()) {
      ConfigValue before = entry.getValue();
      ConfigValue after = updated.getValuesMap().get(entry.getKey());
      if (after == null) {
        membersChanged = true;
      } else if (before.getModPolicy().equals(after.getModPolicy())
          && before.getValue().equals(after.getValue())) {
        same.putValues(
            entry.getKey(), ConfigValue.newBuilder().setVersion(before.getVersion()).build());
      } else {
        write.putValues(entry.getKey(), changed(after, before.getVersion() + 1));
      }
    }
    for (Map.Entry<String, ConfigValue> entry : updated.getValuesMap().entrySet()) {
      if (!original.containsValues(entry.getKey())) {
        membersChanged = true;
        write.putValues(entry.getKey(), changed(entry.getValue(), 0));
      }
    }
    return membersChanged;
  }

  /**
   * Puts changed subgroups into {@code read} and {@code write}, unchanged ones (as read sets) into
   * {@code same}; a new subgroup is written whole at version 0.
   */
  private static boolean groups(
      ConfigGroup original,
      ConfigGroup updated,
      ConfigGroup.Builder read,
      ConfigGroup.Builder write,
      ConfigGroup.Builder same) {
    boolean membersChanged = false;
    for (Map.Entry<String, ConfigGroup> entry : original.getGroupsMap().entrySet()) {
      ConfigGroup after = updated.getGroupsMap().get(entry.getKey());
      if (after == null) {
        membersChanged = true;
        continue;
      }
      Delta delta = group(entry.getValue(), after);
      if (delta.changed()) {
        read.putGroups(entry.getKey(), delta.read());
        write.putGroups(entry.getKey(), delta.write());
      } else {
        same.putGroups(entry.getKey(), delta.read());
      }
    }
    for (Map.Entry<String, ConfigGroup> entry : updated.getGroupsMap().entrySet()) {
      if (!original.containsGroups(entry.getKey())) {
        membersChanged = true;
        ConfigGroup whole = group(ConfigGroup.getDefaultInstance(), entry.getValue()).write();
        write.putGroups(
            entry.getKey(),
            whole.toBuilder().setVersion(0).setModPolicy(entry.getValue().getModPolicy()).build());
      }
    }
    return membersChanged;
  }

  private static ConfigPolicy changed(ConfigPolicy policy, long version) {
    return ConfigPolicy.newBuilder()
        .setVersion(version)
        .setModPolicy(policy.getModPolicy())
        .setPolicy(policy.getPolicy())
        .build();
  }

  private static ConfigValue changed(ConfigValue value, long version) {
    return ConfigValue.newBuilder()
        .setVersion(version)
        .setModPolicy(value.getModPolicy())
        .setValue(value.getValue())
        .build();
  }
}
