/**
 * The orderer's own gRPC client side, shared by the load generator and the block puller: channels
 * to orderers ({@link io.rubinbft.orderer.client.GrpcClients}), Deliver seek requests ({@link
 * io.rubinbft.orderer.client.SeekInfos}) and a Deliver stream read at the reader's pace ({@link
 * io.rubinbft.orderer.client.BlockStream}).
 */
package io.rubinbft.orderer.client;
