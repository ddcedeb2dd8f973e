/**
 * Fabric's {@code orderer.AtomicBroadcast} gRPC service ({@link
 * io.rubinbft.orderer.service.AtomicBroadcastService}) and the narrow view of the node's channels
 * it needs ({@link io.rubinbft.orderer.service.Channels}, {@link
 * io.rubinbft.orderer.service.ServedChannel}), which the channel runtime implements. Behaviour and
 * status codes: docs/BROADCAST-DELIVER.md.
 */
package io.rubinbft.orderer.service;
