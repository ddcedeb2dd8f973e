package io.rubinbft.orderer.block;

import com.google.protobuf.ByteString;
import io.rubinbft.orderer.channel.BatchLimits;
import org.hyperledger.fabric.protos.common.BlockHeader;

/**
 * What a backup expects of the next proposed block, from its own chain and consensus state.
 *
 * @param previous the header of the last block this replica has
 * @param lastConfigIndex the number of the newest config block in that chain
 * @param limits BatchSize of the config in force
 * @param consenterMetadata the consenter metadata the proposed block must carry for its sequence
 *     (e.g. {@link ViewMetadata#toByteString()} with view 0: the view of a commit goes in only when
 *     a consenter signs, {@link CommitViews})
 */
public record ProposalExpectations(
    BlockHeader previous, long lastConfigIndex, BatchLimits limits, ByteString consenterMetadata) {}
