package io.rubinbft.orderer.msp;

/**
 * The node kind a certificate's OU says, when the MSP enables Fabric's NodeOUs: every valid
 * identity then carries exactly one of these.
 */
public enum NodeRole {
  CLIENT,
  PEER,
  ADMIN,
  ORDERER
}
