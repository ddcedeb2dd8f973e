/**
 * Fabric blocks as Fabric v3's BFT orderer makes them. The primary cuts batches ({@link
 * io.rubinbft.orderer.block.BatchCutter}) and assembles blocks ({@link
 * io.rubinbft.orderer.block.BlockAssembler}); backups check proposals ({@link
 * io.rubinbft.orderer.block.ProposedBlockVerifier}, with envelope checks plugged in through {@link
 * io.rubinbft.orderer.block.EnvelopeValidator}); each consenter signs ({@link
 * io.rubinbft.orderer.block.BlockSigner}) and anyone checks a block's quorum of consenter
 * signatures ({@link io.rubinbft.orderer.block.BlockSignatureVerifier}), as Fabric peers do.
 */
package io.rubinbft.orderer.block;
