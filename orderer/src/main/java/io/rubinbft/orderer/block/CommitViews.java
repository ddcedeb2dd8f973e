package io.rubinbft.orderer.block;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.BlockMetadataIndex;
import org.hyperledger.fabric.protos.common.Metadata;
import org.hyperledger.fabric.protos.common.OrdererBlockMetadata;

/**
 * The view a block's consenter signatures were made in. A proposal names no view (its {@link
 * ViewMetadata} has view 0, as the same proposal may be re-proposed and committed in any later
 * view); a consenter's commit signature in view v covers the block with {@code view_id} = v in the
 * SIGNATURES value's {@code OrdererBlockMetadata.consenter_metadata}, and that is the block written
 * to the ledger. Signatures of two views are over different bytes, so one block can only carry
 * signatures of one view, which is what PBFT's agreement needs (a quorum of commits of one view).
 *
 * <p>The rest of the ViewMetadata is the proposal's, so every signer of one view produces the same
 * bytes: {@code latest_sequence} = the PBFT sequence, {@code decisions_in_view} = 0 (a count of
 * decisions in a view differs between replicas that joined the view at different points, and Fabric
 * peers do not read it). View 0 leaves a block byte for byte as it was, so blocks written before
 * signatures named their view (all with view 0) read as signed in view 0 and still verify.
 */
public final class CommitViews {

  private static final int SIGNATURES = BlockMetadataIndex.SIGNATURES_VALUE;

  private CommitViews() {}

  /**
   * {@code block} (unsigned, or its signatures are dropped by the caller) with the view of its
   * consenter metadata set to {@code view}.
   *
   * @throws IllegalArgumentException when the block has no SIGNATURES value with a ViewMetadata
   */
  public static Block inView(Block block, long view) {
    Metadata signatures;
    OrdererBlockMetadata orderer;
    ViewMetadata metadata;
    try {
      signatures = SignedBlocks.signatures(block.getMetadata());
      orderer = OrdererBlockMetadata.parseFrom(signatures.getValue());
      metadata = ViewMetadata.parse(orderer.getConsenterMetadata());
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(
          "block " + block.getHeader().getNumber() + " has no consenter metadata: " + e, e);
    }
    if (metadata.viewId() == view) {
      return block;
    }
    ViewMetadata inView =
        new ViewMetadata(
            view,
            metadata.latestSequence(),
            metadata.decisionsInView(),
            metadata.blackList(),
            metadata.prevCommitSignatureDigest());
    ByteString value =
        orderer.toBuilder().setConsenterMetadata(inView.toByteString()).build().toByteString();
    ByteString entry = signatures.toBuilder().setValue(value).build().toByteString();
    return block.toBuilder()
        .setMetadata(block.getMetadata().toBuilder().setMetadata(SIGNATURES, entry))
        .build();
  }

  /**
   * The view named in {@code block}'s consenter metadata.
   *
   * @throws IllegalArgumentException when the block has no SIGNATURES value with a ViewMetadata
   */
  public static long viewOf(Block block) {
    try {
      OrdererBlockMetadata orderer =
          OrdererBlockMetadata.parseFrom(SignedBlocks.signatures(block.getMetadata()).getValue());
      return ViewMetadata.parse(orderer.getConsenterMetadata()).viewId();
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(
          "block " + block.getHeader().getNumber() + " has no consenter metadata: " + e, e);
    }
  }
}
