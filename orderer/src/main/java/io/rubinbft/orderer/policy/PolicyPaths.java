package io.rubinbft.orderer.policy;

/** The policy paths the orderer evaluates. */
public final class PolicyPaths {

  /** Who may submit transactions (Broadcast). */
  public static final String CHANNEL_WRITERS = "/Channel/Writers";

  /** Who may read blocks (Deliver). */
  public static final String CHANNEL_READERS = "/Channel/Readers";

  /** Who may submit while the channel is in maintenance mode (Fabric's SigFilter). */
  public static final String ORDERER_WRITERS = "/Channel/Orderer/Writers";

  /** Who may read blocks while the channel is in maintenance mode (Fabric's SigFilter). */
  public static final String ORDERER_READERS = "/Channel/Orderer/Readers";

  /** Whose signatures make a block valid (the consenters' quorum in BFT). */
  public static final String BLOCK_VALIDATION = "/Channel/Orderer/BlockValidation";

  private PolicyPaths() {}
}
