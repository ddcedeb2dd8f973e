package io.rubinbft.orderer.block;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnsafeByteOperations;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.Request;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.BlockData;
import org.hyperledger.fabric.protos.common.MetadataSignature;

/**
 * How a Fabric block travels through PBFT: the proposal's requests are the envelopes, byte for
 * byte, and its payload is the rest of the block (header and unsigned metadata) with the data left
 * out, so no envelope is sent twice. The block is the payload with the requests put back; a
 * decision's commit certificate supplies the consenter signatures.
 */
public final class ProposalBlocks {

  private ProposalBlocks() {}

  /** The payload for {@code block}: the block without its data. */
  public static byte[] payload(Block block) {
    return block.toBuilder().clearData().build().toByteArray();
  }

  /**
   * The unsigned block a proposal stands for without its data (header and metadata: all a consenter
   * signature covers, the data through the header's data hash), or empty when its payload is not a
   * block. Signing and checking signatures need no copy of the envelopes.
   */
  public static Optional<Block> withoutData(Proposal proposal) {
    Block withoutData;
    try {
      withoutData = Block.parseFrom(proposal.payload());
    } catch (InvalidProtocolBufferException e) {
      return Optional.empty();
    }
    if (withoutData.getData().getDataCount() > 0 || !withoutData.hasHeader()) {
      return Optional.empty();
    }
    return Optional.of(withoutData);
  }

  /** The unsigned block a proposal stands for, or empty when its payload is not a block. */
  public static Optional<Block> block(Proposal proposal) {
    return withoutData(proposal).map(withoutData -> withData(withoutData, proposal));
  }

  private static Block withData(Block withoutData, Proposal proposal) {
    BlockData.Builder data = BlockData.newBuilder();
    for (Request request : proposal.requests()) {
      // Wrapped, not copied: no one writes to a request's payload once it exists.
      data.addData(UnsafeByteOperations.unsafeWrap(request.payload()));
    }
    return withoutData.toBuilder().setData(data).build();
  }

  /**
   * The signed block a decision stands for: its proposal's block in the view of its commit
   * certificate ({@link CommitViews}) with every commit signature of the certificate in the
   * SIGNATURES metadata.
   *
   * @throws IllegalStateException when the decision's proposal or certificate does not parse, which
   *     cannot happen for a decision this replica's verifier and signer accepted
   */
  public static Block signedBlock(Decision decision) {
    Block block =
        block(decision.proposal())
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "decided proposal " + decision.sequence() + " is not a block"));
    List<MetadataSignature> signatures = new ArrayList<>();
    for (var commit : decision.certificate()) {
      try {
        signatures.add(MetadataSignature.parseFrom(commit.signature()));
      } catch (InvalidProtocolBufferException e) {
        throw new IllegalStateException(
            "decided proposal "
                + decision.sequence()
                + " holds a commit signature of replica "
                + commit.replica()
                + " that is not a MetadataSignature",
            e);
      }
    }
    return SignedBlocks.withSignatures(CommitViews.inView(block, decision.view()), signatures);
  }
}
