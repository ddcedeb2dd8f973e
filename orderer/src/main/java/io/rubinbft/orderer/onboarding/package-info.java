/**
 * Pulling a channel's blocks from other orderers' Deliver services, for a node that cannot get them
 * from consensus: joining a channel with a later config block ({@link
 * io.rubinbft.orderer.onboarding.ChannelOnboarding}), following a channel this node does not order
 * ({@link io.rubinbft.orderer.onboarding.FollowerChannel}), and a consenter catching up across a
 * reconfiguration ({@link io.rubinbft.orderer.onboarding.CatchUp}). Every pulled block is checked
 * before it is appended ({@link io.rubinbft.orderer.onboarding.VerifyingAppender}); sources that
 * fail or lie are left alone for a while ({@link io.rubinbft.orderer.onboarding.BlockPuller}).
 * Operator's view: docs/ONBOARDING.md.
 */
package io.rubinbft.orderer.onboarding;
