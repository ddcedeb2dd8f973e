/**
 * Channel config updates as Fabric's configtx does them: a CONFIG_UPDATE envelope's read set is
 * checked against the current config's versions, its write set minus the read set is the delta,
 * every changed element's {@code mod_policy} must be satisfied by the update's signatures, and the
 * result is the next config (sequence + 1), which this orderer wraps into a signed CONFIG envelope
 * whose {@code last_update} is the submitted envelope byte for byte. {@link
 * io.rubinbft.orderer.configtx.ConfigUpdateProcessor} is the entry point for Broadcast and the
 * participation API; {@link io.rubinbft.orderer.configtx.ConfigTransactionCheck} is what a backup
 * runs on a proposed CONFIG envelope.
 */
package io.rubinbft.orderer.configtx;
