package io.rubinbft.orderer.tools.loadgen;

/** How the load generator submits each envelope to the orderers. */
public enum SubmitMode {

  /**
   * As Fabric's peer Gateway does for a BFT channel (v3.1.5 {@code internal/pkg/gateway/submit.go},
   * {@code submitBFT}): every envelope goes to every orderer, each on a fresh Broadcast stream that
   * carries one envelope and one answer and is then cancelled.
   */
  GATEWAY,

  /**
   * One long-lived Broadcast stream per submitter and orderer, envelopes pipelined on it: a pattern
   * no Fabric client uses, kept to compare with earlier figures.
   */
  PIPELINED;

  /** The name on the command line and in reports. */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
