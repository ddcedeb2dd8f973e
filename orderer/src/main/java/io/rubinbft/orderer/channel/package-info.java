/**
 * A Fabric BFT channel's configuration, read from a config block made by configtxgen or by a config
 * update: {@link io.rubinbft.orderer.channel.ConfigBlockReader} validates it into a {@link
 * io.rubinbft.orderer.channel.ChannelConfig} (ConsenterMapping, SmartBFT options translated to
 * {@link io.rubinbft.orderer.channel.PbftSettings}, BatchSize, endpoints, capabilities), and {@link
 * io.rubinbft.orderer.channel.ChannelConfig#thisNode} finds this node's replica. The mapping from
 * SmartBFT options to PBFT settings is documented in orderer/docs/CONFIG-MAPPING.md.
 */
package io.rubinbft.orderer.channel;
