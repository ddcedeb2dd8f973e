/**
 * Fabric blocks as Fabric v3's BFT orderer makes them, and how they travel as PBFT proposals: the
 * one place where a block is assembled, checked and signed, one job per class. bft-core's
 * ProposalAssembler and ProposalVerifier for a channel are {@link
 * io.rubinbft.orderer.block.FabricProposals}. The primary cuts batches ({@link
 * io.rubinbft.orderer.block.BatchCutter}) and assembles blocks ({@link
 * io.rubinbft.orderer.block.BlockAssembler}); a proposal carries the envelopes and the block
 * without its data ({@link io.rubinbft.orderer.block.ProposalBlocks}); backups check proposed
 * blocks ({@link io.rubinbft.orderer.block.ProposedBlockVerifier}, with envelope checks plugged in
 * through {@link io.rubinbft.orderer.block.EnvelopeValidator}); each consenter signs its commits
 * ({@link io.rubinbft.orderer.block.FabricProposalSigner} over {@link
 * io.rubinbft.orderer.block.BlockSigner}) and anyone checks a block's quorum of consenter
 * signatures ({@link io.rubinbft.orderer.block.BlockSignatureVerifier}), as Fabric peers do. The
 * channel state these depend on (the config in force, the transactions ordered, the epoch rule) is
 * the consensus package's, seen through {@link io.rubinbft.orderer.block.ProposalChain} ({@code
 * consensus.ChainState}).
 */
package io.rubinbft.orderer.block;
