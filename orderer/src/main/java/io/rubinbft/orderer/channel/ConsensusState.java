package io.rubinbft.orderer.channel;

/**
 * {@code ConsensusType.state}: in maintenance mode a Fabric orderer orders only config updates from
 * orderer admins (used to migrate consensus types); normally it orders everything.
 */
public enum ConsensusState {
  NORMAL,
  MAINTENANCE
}
