package io.rubinbft.orderer.block;

import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.spi.ProposalSigner;
import io.rubinbft.orderer.channel.ConsenterMapping;
import java.util.List;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.IdentifierHeader;
import org.hyperledger.fabric.protos.common.MetadataSignature;

/**
 * Commit signatures in Fabric v3's BFT form: a replica's commit carries its {@code
 * MetadataSignature} over the block (identifier header with its consenter id and a fresh nonce,
 * signature over SIGNATURES value || identifier header || header DER), so a decision's certificate
 * is exactly the signature set a Fabric peer checks. The SIGNATURES value signed is the proposal's
 * with the view of the commit in its consenter metadata ({@link CommitViews}): a signature of one
 * view does not verify in another. Replica {@code i} is the i-th consenter by id.
 */
public final class FabricProposalSigner implements ProposalSigner {

  private final BlockSigner signer;
  private final ConsenterMapping consenters;
  private final BlockSignatureVerifier verifier;

  public FabricProposalSigner(
      BlockSigner signer, ConsenterMapping consenters, BlockSignatureVerifier verifier) {
    this.signer = signer;
    this.consenters = consenters;
    this.verifier = verifier;
  }

  @Override
  public byte[] signProposal(long view, Proposal proposal) {
    Block block =
        ProposalBlocks.withoutData(proposal)
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "asked to sign proposal " + proposal.sequence() + ", not a block"));
    return signer.sign(CommitViews.inView(block, view)).toByteArray();
  }

  @Override
  public boolean verifyProposalSignature(
      int replica, long view, Proposal proposal, byte[] signature) {
    if (replica < 0 || replica >= consenters.size() || view < 0) {
      return false;
    }
    long consenterId = consenters.consenters().get(replica).id();
    Optional<Block> block = ProposalBlocks.withoutData(proposal).flatMap(b -> inView(b, view));
    Optional<MetadataSignature> parsed = parse(signature);
    if (block.isEmpty() || parsed.isEmpty() || signerOf(parsed.get()) != consenterId) {
      return false;
    }
    Block signed = SignedBlocks.withSignatures(block.get(), List.of(parsed.get()));
    return verifier
        .check(signed.getHeader(), signed.getMetadata())
        .validSigners()
        .contains(consenterId);
  }

  /** The block in {@code view}, or empty when a peer's proposal has no consenter metadata. */
  private static Optional<Block> inView(Block block, long view) {
    try {
      return Optional.of(CommitViews.inView(block, view));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  private static Optional<MetadataSignature> parse(byte[] signature) {
    try {
      return Optional.of(MetadataSignature.parseFrom(signature));
    } catch (InvalidProtocolBufferException e) {
      return Optional.empty();
    }
  }

  private static long signerOf(MetadataSignature signature) {
    try {
      return Integer.toUnsignedLong(
          IdentifierHeader.parseFrom(signature.getIdentifierHeader()).getIdentifier());
    } catch (InvalidProtocolBufferException e) {
      return -1;
    }
  }
}
