package io.rubinbft.orderer.configtx;

import io.rubinbft.orderer.msp.Identity;
import io.rubinbft.orderer.policy.ChannelPolicies;
import io.rubinbft.orderer.policy.Policy;
import io.rubinbft.orderer.policy.PolicyResult;
import io.rubinbft.orderer.policy.SignedData;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import org.hyperledger.fabric.protos.common.Config;
import org.hyperledger.fabric.protos.common.ConfigUpdate;

/**
 * Fabric's configtx validator for one channel config: turns an authorized {@link ConfigUpdate} into
 * the next {@link Config}. The steps and the error texts are Fabric's (common/configtx update.go):
 * channel id, read set versions, delta = write set elements whose version differs from the read
 * set's, each delta element's version exactly one above the current one (0 for a new element) and
 * its current mod_policy satisfied by the update's signatures, then the delta overlaid on the
 * current config. Elements are visited in key order, so every replica fails on the same element.
 */
public final class ConfigUpdateValidator {

  private final String channelId;
  private final Config current;
  private final NavigableMap<String, ConfigElement> elements;
  private final ChannelPolicies policies;

  private ConfigUpdateValidator(
      String channelId,
      Config current,
      NavigableMap<String, ConfigElement> elements,
      ChannelPolicies policies) {
    this.channelId = channelId;
    this.current = current;
    this.elements = elements;
    this.policies = policies;
  }

  /**
   * @param current the channel's config in force
   * @param policies the policies of {@code current}, which judge every change
   * @throws ConfigUpdateException when {@code current} holds an element name Fabric forbids
   */
  public static ConfigUpdateValidator of(String channelId, Config current, ChannelPolicies policies)
      throws ConfigUpdateException {
    return new ConfigUpdateValidator(
        channelId, current, ConfigMap.of(current.getChannelGroup()), policies);
  }

  public String channelId() {
    return channelId;
  }

  /** The config updates are checked against. */
  public Config current() {
    return current;
  }

  /**
   * The config {@code update} leads to, with sequence one above the current one.
   *
   * @param signatures the update's ConfigSignatures as signed data
   * @throws ConfigUpdateException naming the failing element or policy, after "error authorizing
   *     update: " as Fabric words it
   */
  public Config apply(ConfigUpdate update, List<SignedData> signatures)
      throws ConfigUpdateException {
    try {
      Map<String, ConfigElement> delta = authorize(update, signatures);
      Map<String, ConfigElement> result = new TreeMap<>(elements);
      result.putAll(delta);
      return Config.newBuilder()
          .setSequence(current.getSequence() + 1)
          .setChannelGroup(ConfigMap.toTree(result))
          .build();
    } catch (ConfigUpdateException e) {
      throw e.wrap("error authorizing update");
    }
  }

  private Map<String, ConfigElement> authorize(ConfigUpdate update, List<SignedData> signatures)
      throws ConfigUpdateException {
    if (!update.getChannelId().equals(channelId)) {
      throw ConfigUpdateException.badRequest(
          "ConfigUpdate for channel '"
              + update.getChannelId()
              + "' but envelope for channel '"
              + channelId
              + "'");
    }
    NavigableMap<String, ConfigElement> readSet = mapped(update, true);
    try {
      verifyReadSet(readSet);
    } catch (ConfigUpdateException e) {
      throw e.wrap("error validating ReadSet");
    }
    NavigableMap<String, ConfigElement> delta = delta(readSet, mapped(update, false));
    try {
      verifyDelta(delta, signatures);
    } catch (ConfigUpdateException e) {
      throw e.wrap("error validating DeltaSet");
    }
    return delta;
  }

  private static NavigableMap<String, ConfigElement> mapped(ConfigUpdate update, boolean readSet)
      throws ConfigUpdateException {
    try {
      return ConfigMap.of(readSet ? update.getReadSet() : update.getWriteSet());
    } catch (ConfigUpdateException e) {
      throw e.wrap(readSet ? "error mapping ReadSet" : "error mapping WriteSet");
    }
  }

  private void verifyReadSet(Map<String, ConfigElement> readSet) throws ConfigUpdateException {
    for (Map.Entry<String, ConfigElement> entry : readSet.entrySet()) {
      ConfigElement existing = elements.get(entry.getKey());
      if (existing == null) {
        throw ConfigUpdateException.badRequest(
            "existing config does not contain element for "
                + entry.getKey()
                + " but was in the read set");
      }
      if (existing.version() != entry.getValue().version()) {
        throw ConfigUpdateException.badRequest(
            "proposed update requires that key "
                + entry.getKey()
                + " be at version "
                + entry.getValue().version()
                + ", but it is currently at version "
                + existing.version());
      }
    }
  }

  /** The write set's elements that the read set does not hold at the same version. */
  private static NavigableMap<String, ConfigElement> delta(
      Map<String, ConfigElement> readSet, Map<String, ConfigElement> writeSet) {
    NavigableMap<String, ConfigElement> delta = new TreeMap<>();
    for (Map.Entry<String, ConfigElement> entry : writeSet.entrySet()) {
      ConfigElement read = readSet.get(entry.getKey());
      if (read == null || read.version() != entry.getValue().version()) {
        delta.put(entry.getKey(), entry.getValue());
      }
    }
    return delta;
  }

  private void verifyDelta(Map<String, ConfigElement> delta, List<SignedData> signatures)
      throws ConfigUpdateException {
    if (delta.isEmpty()) {
      throw ConfigUpdateException.badRequest("delta set was empty -- update would have no effect");
    }
    // Verified once for all elements; each signer counts at most once (Fabric dedupes identities).
    List<Identity> signers = policies.verifiedSigners(signatures);
    for (Map.Entry<String, ConfigElement> entry : delta.entrySet()) {
      String key = entry.getKey();
      ConfigElement proposed = entry.getValue();
      Optional<String> badModPolicy = ConfigIds.invalidModPolicy(proposed.modPolicy());
      if (badModPolicy.isPresent()) {
        throw ConfigUpdateException.badRequest(
            "invalid mod_policy for element " + key + ": " + badModPolicy.get());
      }
      ConfigElement existing = elements.get(key);
      if (existing == null) {
        if (proposed.version() != 0) {
          throw ConfigUpdateException.badRequest(
              "attempted to set key "
                  + key
                  + " to version "
                  + proposed.version()
                  + ", but key does not exist");
        }
        continue;
      }
      if (proposed.version() != existing.version() + 1) {
        throw ConfigUpdateException.badRequest(
            "attempt to set key "
                + key
                + " to version "
                + proposed.version()
                + ", but key is at version "
                + existing.version());
      }
      authorizeChange(key, existing, signers);
    }
  }

  private void authorizeChange(String key, ConfigElement existing, List<Identity> signers)
      throws ConfigUpdateException {
    Optional<Policy> policy = policies.policy(existing.modPolicyPath());
    if (policy.isEmpty()) {
      throw ConfigUpdateException.badRequest(
          "unexpected missing policy " + existing.modPolicy() + " for item " + key);
    }
    PolicyResult result = policy.get().evaluate(signers);
    if (!result.satisfied()) {
      throw ConfigUpdateException.badRequest(
          "policy for " + key + " not satisfied: " + result.failure());
    }
  }
}
