package io.rubinbft.orderer.tools.bootstrap;

/**
 * The organizational units Fabric's NodeOUs classify identities by; cryptogen puts exactly one of
 * them into each enrollment certificate's subject.
 */
enum NodeOu {
  CLIENT("client"),
  PEER("peer"),
  ADMIN("admin"),
  ORDERER("orderer");

  private final String identifier;

  NodeOu(String identifier) {
    this.identifier = identifier;
  }

  /** The OU value in the certificate subject and in msp/config.yaml. */
  String identifier() {
    return identifier;
  }
}
