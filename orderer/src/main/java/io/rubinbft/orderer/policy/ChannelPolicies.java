package io.rubinbft.orderer.policy;

import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.orderer.msp.Identity;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.hyperledger.fabric.protos.common.Config;
import org.hyperledger.fabric.protos.common.ConfigGroup;
import org.hyperledger.fabric.protos.common.ConfigPolicy;
import org.hyperledger.fabric.protos.common.ImplicitMetaPolicy.Rule;
import org.hyperledger.fabric.protos.common.Policy.PolicyType;
import org.hyperledger.fabric.protos.common.SignaturePolicyEnvelope;

/**
 * Every policy of a channel config's group tree, by path ("/Channel/Writers",
 * "/Channel/Application/Org1/Writers", "/Channel/Orderer/BlockValidation"), built once per config.
 */
public final class ChannelPolicies {

  private static final String ROOT = "/Channel";

  private final Map<String, Policy> byPath;
  private final SignerVerifier signers;

  private ChannelPolicies(Map<String, Policy> byPath, SignerVerifier signers) {
    this.byPath = Map.copyOf(byPath);
    this.signers = signers;
  }

  /**
   * @param signers verifies signatures against the same config's MSPs
   */
  public static ChannelPolicies fromConfig(Config config, SignerVerifier signers)
      throws PolicyConfigException {
    Map<String, Policy> byPath = new HashMap<>();
    build(config.getChannelGroup(), ROOT, byPath);
    return new ChannelPolicies(byPath, signers);
  }

  public Optional<Policy> policy(String path) {
    return Optional.ofNullable(byPath.get(path));
  }

  /** The signers of {@code signatureSet} whose identity is valid and whose signature verifies. */
  public List<Identity> verifiedSigners(List<SignedData> signatureSet) {
    return signers.verifiedSigners(signatureSet);
  }

  /** Verifies the signature set, then evaluates the policy at {@code path} over its signers. */
  public PolicyResult evaluate(String path, List<SignedData> signatureSet) {
    return evaluateSigners(path, verifiedSigners(signatureSet));
  }

  /** Evaluates the policy at {@code path} over signers already verified. */
  public PolicyResult evaluateSigners(String path, List<Identity> verifiedSigners) {
    Policy policy = byPath.get(path);
    if (policy == null) {
      return PolicyResult.failed("could not find policy " + path);
    }
    return policy.evaluate(verifiedSigners);
  }

  /** Builds the group's sub-groups first: an ImplicitMeta policy refers to theirs. */
  private static Map<String, Policy> build(ConfigGroup group, String path, Map<String, Policy> all)
      throws PolicyConfigException {
    Map<String, Map<String, Policy>> children = new TreeMap<>();
    for (Map.Entry<String, ConfigGroup> child : new TreeMap<>(group.getGroupsMap()).entrySet()) {
      children.put(child.getKey(), build(child.getValue(), path + "/" + child.getKey(), all));
    }
    Map<String, Policy> own = new HashMap<>();
    for (Map.Entry<String, ConfigPolicy> entry : group.getPoliciesMap().entrySet()) {
      String policyPath = path + "/" + entry.getKey();
      Policy policy = policy(entry.getValue(), policyPath, children);
      own.put(entry.getKey(), policy);
      all.put(policyPath, policy);
    }
    return own;
  }

  private static Policy policy(
      ConfigPolicy configPolicy, String path, Map<String, Map<String, Policy>> children)
      throws PolicyConfigException {
    var definition = configPolicy.getPolicy();
    try {
      return switch (PolicyType.forNumber(definition.getType())) {
        case SIGNATURE -> compileSignature(definition.getValue().toByteArray(), path);
        case IMPLICIT_META -> implicitMeta(definition.getValue().toByteArray(), path, children);
        case null, default ->
            throw new PolicyConfigException(
                path + ": policy type " + definition.getType() + " is not supported");
      };
    } catch (InvalidProtocolBufferException e) {
      throw new PolicyConfigException(path + ": malformed policy: " + e.getMessage(), e);
    }
  }

  private static Policy compileSignature(byte[] value, String path)
      throws InvalidProtocolBufferException, PolicyConfigException {
    try {
      return SignaturePolicy.compile(SignaturePolicyEnvelope.parseFrom(value));
    } catch (PolicyConfigException e) {
      throw new PolicyConfigException(path + ": " + e.getMessage(), e);
    }
  }

  private static Policy implicitMeta(
      byte[] value, String path, Map<String, Map<String, Policy>> children)
      throws InvalidProtocolBufferException, PolicyConfigException {
    var definition = org.hyperledger.fabric.protos.common.ImplicitMetaPolicy.parseFrom(value);
    if (definition.getRule() == Rule.UNRECOGNIZED) {
      throw new PolicyConfigException(
          path + ": implicit meta rule " + definition.getRuleValue() + " is not supported");
    }
    String name = definition.getSubPolicy();
    List<Policy> subPolicies = new ArrayList<>();
    for (Map.Entry<String, Map<String, Policy>> child : children.entrySet()) {
      Policy sub = child.getValue().get(name);
      subPolicies.add(
          sub != null
              ? sub
              : new MissingPolicy(parentOf(path) + "/" + child.getKey() + "/" + name));
    }
    return new ImplicitMetaPolicy(definition.getRule(), name, subPolicies);
  }

  private static String parentOf(String path) {
    return path.substring(0, path.lastIndexOf('/'));
  }
}
