/**
 * The node's channels as Broadcast and Deliver see them ({@link
 * io.rubinbft.orderer.service.Channels}, {@link io.rubinbft.orderer.service.ServedChannel}, {@link
 * io.rubinbft.orderer.service.SubmitOutcome}): the narrow boundary between the client streams and
 * the channel runtime, which implements it; and how both streams are opened, one request at a time
 * ({@link io.rubinbft.orderer.service.PacedSession}). The gRPC service over it is {@link
 * io.rubinbft.orderer.grpc.AtomicBroadcastService}. Behaviour and status codes:
 * docs/BROADCAST-DELIVER.md.
 */
package io.rubinbft.orderer.service;
