package io.rubinbft.orderer.tools.bootstrap;

/** cryptogen's two kinds of organization, with their folder names and their nodes' NodeOU. */
public enum OrgKind {
  ORDERER("ordererOrganizations", "orderers", NodeOu.ORDERER),
  PEER("peerOrganizations", "peers", NodeOu.PEER);

  private final String organizationsFolder;
  private final String nodesFolder;
  private final NodeOu nodeOu;

  OrgKind(String organizationsFolder, String nodesFolder, NodeOu nodeOu) {
    this.organizationsFolder = organizationsFolder;
    this.nodesFolder = nodesFolder;
    this.nodeOu = nodeOu;
  }

  String organizationsFolder() {
    return organizationsFolder;
  }

  String nodesFolder() {
    return nodesFolder;
  }

  NodeOu nodeOu() {
    return nodeOu;
  }
}
