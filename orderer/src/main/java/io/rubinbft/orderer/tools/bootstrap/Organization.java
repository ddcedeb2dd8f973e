package io.rubinbft.orderer.tools.bootstrap;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hyperledger.fabric.protos.common.MSPRole.MSPRoleType;
import org.hyperledger.fabric.protos.common.SignaturePolicyEnvelope;
import org.hyperledger.fabric.protos.peer.AnchorPeer;

/**
 * An organization of configtx.yaml: its name (the config group's key), MSP id, verifying MSP
 * folder, signature policies by name, and, for orderer organizations, the Broadcast/Deliver
 * endpoints clients dial; for application organizations, its anchor peers.
 */
public record Organization(
    String name,
    String mspId,
    Path mspDir,
    Map<String, SignaturePolicyEnvelope> policies,
    List<String> ordererEndpoints,
    List<AnchorPeer> anchorPeers) {

  public Organization {
    policies = Map.copyOf(policies);
    ordererEndpoints = List.copyOf(ordererEndpoints);
    anchorPeers = List.copyOf(anchorPeers);
    for (String required : List.of("Readers", "Writers", "Admins")) {
      if (!policies.containsKey(required)) {
        throw new IllegalArgumentException(
            "organization " + name + " has no " + required + " policy");
      }
    }
  }

  /**
   * An orderer organization with configtx.yaml's usual policies: Readers and Writers {@code
   * OR('msp.member')}, Admins {@code OR('msp.admin')}.
   */
  public static Organization orderer(
      String name, String mspId, Path mspDir, List<String> ordererEndpoints) {
    Map<String, SignaturePolicyEnvelope> policies = new LinkedHashMap<>();
    policies.put("Readers", SignaturePolicies.anyOf(mspId, List.of(MSPRoleType.MEMBER)));
    policies.put("Writers", SignaturePolicies.anyOf(mspId, List.of(MSPRoleType.MEMBER)));
    policies.put("Admins", SignaturePolicies.anyOf(mspId, List.of(MSPRoleType.ADMIN)));
    return new Organization(name, mspId, mspDir, policies, ordererEndpoints, List.of());
  }

  /**
   * An application organization with configtx.yaml's usual NodeOU policies: Readers admin, peer or
   * client; Writers admin or client; Admins admin; Endorsement peer.
   */
  public static Organization application(
      String name, String mspId, Path mspDir, List<AnchorPeer> anchorPeers) {
    Map<String, SignaturePolicyEnvelope> policies = new LinkedHashMap<>();
    policies.put(
        "Readers",
        SignaturePolicies.anyOf(
            mspId, List.of(MSPRoleType.ADMIN, MSPRoleType.PEER, MSPRoleType.CLIENT)));
    policies.put(
        "Writers", SignaturePolicies.anyOf(mspId, List.of(MSPRoleType.ADMIN, MSPRoleType.CLIENT)));
    policies.put("Admins", SignaturePolicies.anyOf(mspId, List.of(MSPRoleType.ADMIN)));
    policies.put("Endorsement", SignaturePolicies.anyOf(mspId, List.of(MSPRoleType.PEER)));
    return new Organization(name, mspId, mspDir, policies, List.of(), anchorPeers);
  }
}
