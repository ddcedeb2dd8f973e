package io.rubinbft.orderer.channel;

import java.util.Set;

/**
 * The capability names a channel config turns on, per level ({@code /Channel/Capabilities}, {@code
 * /Channel/Orderer/Capabilities}, {@code /Channel/Application/Capabilities}), e.g. channel {@code
 * V3_0}, orderer {@code V2_0}, application {@code V2_5}.
 */
public record Capabilities(Set<String> channel, Set<String> orderer, Set<String> application) {

  /** Channel capabilities Fabric v3 knows; {@code V3_0} is what BFT ordering requires. */
  static final Set<String> KNOWN_CHANNEL =
      Set.of("V1_1", "V1_3", "V1_4_2", "V1_4_3", "V2_0", "V3_0");

  /** Orderer capabilities Fabric v3 knows. */
  static final Set<String> KNOWN_ORDERER = Set.of("V1_1", "V1_4_2", "V2_0");

  /** The channel capability that enables BFT consensus and identifier-header block signatures. */
  static final String BFT_CHANNEL_CAPABILITY = "V3_0";

  /** The orderer capabilities that turn on Fabric's ConsensusTypeMigration (maintenance mode). */
  private static final Set<String> CONSENSUS_TYPE_MIGRATION = Set.of("V1_4_2", "V2_0");

  public Capabilities {
    channel = Set.copyOf(channel);
    orderer = Set.copyOf(orderer);
    application = Set.copyOf(application);
  }

  /**
   * Fabric's {@code ConsensusTypeMigration()}: whether {@code ConsensusType.State} may leave
   * STATE_NORMAL, and whether maintenance mode refuses normal transactions.
   */
  public boolean consensusTypeMigration() {
    return orderer.stream().anyMatch(CONSENSUS_TYPE_MIGRATION::contains);
  }
}
