package io.rubinbft.orderer.consensus;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.spi.ProposalAssembler;
import io.rubinbft.orderer.block.BlockAssembler;
import io.rubinbft.orderer.block.ProposalExpectations;
import io.rubinbft.orderer.block.ProposalVerifier;
import io.rubinbft.orderer.block.ViewMetadata;
import io.rubinbft.orderer.channel.BatchLimits;
import java.util.List;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.BlockHeader;

/**
 * The primary's block assembly and the backups' block check for one channel, as bft-core's
 * ProposalAssembler and ProposalVerifier. Sequence {@code s} orders block {@code base + s}, where
 * {@code base} is the last block before consensus started on this channel (the genesis block).
 *
 * <p>The consenter metadata is SmartBFT's ViewMetadata with view 0 and the sequence: bft-core does
 * not tell the application its view, and Fabric peers do not read this field (they check the
 * signatures against BlockValidation), so it records the sequence only.
 */
public final class FabricProposals
    implements ProposalAssembler, io.rubinbft.bft.spi.ProposalVerifier {

  private final BlockHeader base;
  private final long lastConfigIndex;
  private final BatchLimits limits;
  private final ProposalVerifier verifier;

  /**
   * @param base the header of the last block before sequence 1
   * @param lastConfigIndex the newest config block number in the chain
   * @param limits BatchSize of the config in force
   * @param verifier the block checks, with the channel's envelope validation
   */
  public FabricProposals(
      BlockHeader base, long lastConfigIndex, BatchLimits limits, ProposalVerifier verifier) {
    this.base = base;
    this.lastConfigIndex = lastConfigIndex;
    this.limits = limits;
    this.verifier = verifier;
  }

  @Override
  public byte[] assemble(long sequence, List<Request> batch, Proposal previous) {
    List<ByteString> envelopes =
        batch.stream().map(request -> ByteString.copyFrom(request.payload())).toList();
    Block block =
        BlockAssembler.assemble(
            previousHeader(previous), envelopes, lastConfigIndex, consenterMetadata(sequence));
    return ProposalBlocks.payload(block);
  }

  @Override
  public Optional<String> invalidReason(Proposal proposal, Proposal previous) {
    Optional<Block> block = ProposalBlocks.block(proposal);
    if (block.isEmpty()) {
      return Optional.of("proposal " + proposal.sequence() + "'s payload is not a block header");
    }
    ProposalExpectations expected =
        new ProposalExpectations(
            previousHeader(previous),
            lastConfigIndex,
            limits,
            consenterMetadata(proposal.sequence()));
    return verifier.invalidReason(block.get(), expected);
  }

  private BlockHeader previousHeader(Proposal previous) {
    if (previous == null) {
      return base;
    }
    try {
      return Block.parseFrom(previous.payload()).getHeader();
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(
          "accepted proposal " + previous.sequence() + " is not a block header", e);
    }
  }

  private static ByteString consenterMetadata(long sequence) {
    return ViewMetadata.ofSequence(0, sequence, 0).toByteString();
  }
}
