/**
 * Fabric's Deliver stream: seek requests served in turn ({@link
 * io.rubinbft.orderer.deliver.DeliverSession}), each resolved against the ledger ({@link
 * io.rubinbft.orderer.deliver.SeekRange}) and streamed with per-block access checks and transport
 * backpressure ({@link io.rubinbft.orderer.deliver.SeekHandler}).
 */
package io.rubinbft.orderer.deliver;
