package io.rubinbft.orderer.tools.bootstrap;

/** The {@code msp/config.yaml} cryptogen writes when an organization enables NodeOUs. */
final class NodeOusConfig {

  private NodeOusConfig() {}

  /**
   * The NodeOUs file, byte for byte as cryptogen writes it (4-space indents), every OU identifier
   * tied to the MSP's CA certificate at {@code caCertificate}, relative to the MSP folder.
   */
  static String yaml(String caCertificate) {
    StringBuilder text = new StringBuilder("NodeOUs:\n    Enable: true\n");
    appendIdentifier(text, "ClientOUIdentifier", caCertificate, NodeOu.CLIENT);
    appendIdentifier(text, "PeerOUIdentifier", caCertificate, NodeOu.PEER);
    appendIdentifier(text, "AdminOUIdentifier", caCertificate, NodeOu.ADMIN);
    appendIdentifier(text, "OrdererOUIdentifier", caCertificate, NodeOu.ORDERER);
    return text.toString();
  }

  private static void appendIdentifier(
      StringBuilder text, String key, String caCertificate, NodeOu ou) {
    text.append("    ").append(key).append(":\n");
    text.append("        Certificate: ").append(caCertificate).append('\n');
    text.append("        OrganizationalUnitIdentifier: ").append(ou.identifier()).append('\n');
  }
}
