/**
 * The host of a replica across consensus epochs, as one pure component that the orderer runs in
 * production and the simulator and scenario explorer run in tests: the effects loop (bft-core's
 * durability rule), the epoch switch at a decision that ends the epoch, the check of a frame's
 * epoch and sender, and the trigger of a catch-up when a view change stalls. It owns no thread,
 * clock, socket or file: the WAL, the network, the application's ledger and the start of the next
 * epoch's replica are ports ({@link io.rubinbft.bft.host.HostedEpoch}, {@link
 * io.rubinbft.bft.host.HostApplication}, {@link io.rubinbft.bft.host.EpochStarter}) that each
 * environment implements.
 */
package io.rubinbft.bft.host;
