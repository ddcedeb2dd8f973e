package io.rubinbft.orderer.block;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnsafeByteOperations;
import io.rubinbft.bft.BatchPolicy;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.RequestId;
import io.rubinbft.bft.spi.ProposalAssembler;
import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.channel.PbftSettings;
import java.util.List;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.Block;
import org.jspecify.annotations.Nullable;

/**
 * The primary's block assembly and the backups' block check for one channel, as bft-core's
 * ProposalAssembler and ProposalVerifier. Sequence {@code s} orders block {@code base + s}, where
 * {@code base} is the last block before consensus started on this channel (the genesis block).
 *
 * <p>Each block is cut and checked under the config in force after its predecessor, as the
 * channel's state ({@link ProposalChain}, kept by the consensus package) knows it: that config's
 * BatchSize, its MSPs and policies for the envelopes, and its config block number as last config
 * index. A CONFIG envelope goes alone into its block; an envelope no longer valid under the config
 * in force (its org was removed, a config update it raced with was ordered first) leaves the pool
 * instead of being proposed.
 *
 * <p>No transaction is ordered twice (the chain's ordered transactions, exact): the primary drops a
 * pending request already ordered instead of proposing it, and a backup refuses a proposal that
 * carries one ordered in an earlier block, or a request whose id is not the one its envelope is
 * ordered under (a Byzantine primary could otherwise slip a known transaction past every id-keyed
 * check). A request twice in one proposal or also in another pending proposal is bft-core's to
 * refuse.
 *
 * <p>The consenter metadata of a proposal is SmartBFT's ViewMetadata with view 0, the sequence and
 * decisions_in_view 0: a proposal may be re-proposed and committed in a later view, so it names no
 * view; each commit signature is made over the block with the view of its commit in place of the 0
 * ({@link CommitViews}), and the decided block carries that view. Fabric peers do not read this
 * field (they check the signatures against BlockValidation).
 *
 * @param <R> the config in force and its checks, as the chain names them
 */
public final class FabricProposals<R extends ProposalChain.Rules>
    implements ProposalAssembler, io.rubinbft.bft.spi.ProposalVerifier {

  private final Block base;
  private final ProposalChain<R> chain;
  private final Optional<ChannelConfig> epoch;
  private @Nullable BatchPolicy lastPolicy;
  private @Nullable Proposal lastPolicyPrevious;
  private long lastPolicyConfiguredBytes;

  /**
   * @param base the last block before sequence 1 (the genesis block)
   * @param chain the channel's state: the config in force after each block, the requests ordered
   */
  public FabricProposals(Block base, ProposalChain<R> chain) {
    this(base, chain, Optional.empty());
  }

  private FabricProposals(Block base, ProposalChain<R> chain, Optional<ChannelConfig> epoch) {
    this.base = base;
    this.chain = chain;
    this.epoch = epoch;
  }

  /** The same assembly and checks for the replica of the epoch that runs {@code epochConfig}. */
  public FabricProposals<R> forEpoch(ChannelConfig epochConfig) {
    return new FabricProposals<>(base, chain, Optional.of(epochConfig));
  }

  /**
   * bft-core's end-of-epoch barrier: exactly the host's switch rule ({@link
   * ProposalChain#endsEpoch}), so nothing is proposed or accepted after a config block that ends
   * this epoch. Without it, replicas would sign blocks past the epoch's end while pipelining, and
   * after a removal those signatures could make a quorum of the next member set for a block the
   * next epoch never decides.
   */
  @Override
  public boolean endsEpoch(Proposal proposal) {
    return epoch.isPresent() && chain.endsEpoch(epoch.get(), proposal);
  }

  @Override
  public byte[] assemble(long sequence, List<Request> batch, @Nullable Proposal previous) {
    Block previousBlock = previousBlock(previous);
    R state = stateAfter(previousBlock);
    List<ByteString> envelopes =
        batch.stream().map(request -> UnsafeByteOperations.unsafeWrap(request.payload())).toList();
    Block block =
        BlockAssembler.assemble(
            previousBlock.getHeader(),
            envelopes,
            state.config().blockNumber(),
            consenterMetadata(sequence));
    chain.record(block, state);
    return ProposalBlocks.payload(block);
  }

  /**
   * The policy for the block after {@code previous}. bft-core asks on every step of the primary
   * while requests wait for a batch (each tick, message and client request), and finding the config
   * in force parses and hashes the previous block: the last answer is kept while the primary builds
   * on the same previous proposal. Called on the replica's thread only.
   */
  @Override
  public BatchPolicy batchPolicy(@Nullable Proposal previous, BatchPolicy configured) {
    if (lastPolicy == null
        || previous != lastPolicyPrevious
        || configured.maxBytes() != lastPolicyConfiguredBytes) {
      BatchPolicy policy = policyAfter(previous, configured.maxBytes());
      lastPolicy = policy;
      lastPolicyPrevious = previous;
      lastPolicyConfiguredBytes = configured.maxBytes();
      return policy;
    }
    return lastPolicy;
  }

  private BatchPolicy policyAfter(@Nullable Proposal previous, long configuredMaxBytes) {
    R state = stateAfter(previousBlock(previous));
    PbftSettings pbft = state.config().pbft();
    long maxBytes = Math.max(pbft.batchMaxBytes(), pbft.requestMaxBytes());
    return new BatchPolicy(
        pbft.batchMaxCount(),
        Math.min(configuredMaxBytes, maxBytes),
        request -> {
          ByteString envelope = UnsafeByteOperations.unsafeWrap(request.payload());
          if (state.envelopes().invalidReason(envelope).isPresent()
              || chain.orderedIn(request.id().key()).isPresent()) {
            return BatchPolicy.Placement.DROP;
          }
          return EnvelopeHeaders.isConfigEnvelope(envelope)
              ? BatchPolicy.Placement.ALONE
              : BatchPolicy.Placement.WITH_OTHERS;
        });
  }

  @Override
  public Optional<String> invalidReason(Proposal proposal, @Nullable Proposal previous) {
    Optional<Block> block = ProposalBlocks.block(proposal);
    if (block.isEmpty()) {
      return Optional.of("proposal " + proposal.sequence() + "'s payload is not a block header");
    }
    Block previousBlock = previousBlock(previous);
    Optional<R> state = chain.after(previousBlock);
    if (state.isEmpty()) {
      return Optional.of(
          "the config in force after block "
              + previousBlock.getHeader().getNumber()
              + " is unknown to this replica");
    }
    ProposalExpectations expected =
        new ProposalExpectations(
            previousBlock.getHeader(),
            state.get().config().blockNumber(),
            state.get().config().batchLimits(),
            consenterMetadata(proposal.sequence()));
    Optional<String> reason =
        state
            .get()
            .proposals()
            .invalidReason(block.get(), expected)
            .or(() -> orderedAlready(proposal, block.get().getHeader().getNumber()));
    if (reason.isEmpty()) {
      chain.record(block.get(), state.get());
    }
    return reason;
  }

  /**
   * Why {@code proposal} (block {@code number}, its envelopes already found valid) would order a
   * request again: one ordered in an earlier block, or one whose id is not its envelope's.
   */
  private Optional<String> orderedAlready(Proposal proposal, long number) {
    List<Request> requests = proposal.requests();
    for (int i = 0; i < requests.size(); i++) {
      Request request = requests.get(i);
      RequestId id = chain.requestId(request.payload());
      if (!id.equals(request.id())) {
        return Optional.of(
            "request " + i + " is labelled " + request.id() + " but its envelope is " + id);
      }
      Optional<Long> block = chain.orderedIn(id.key());
      if (block.isPresent() && block.get() < number) {
        return Optional.of(
            "envelope " + i + " (" + id.key() + ") was ordered already in block " + block.get());
      }
    }
    return Optional.empty();
  }

  private R stateAfter(Block previous) {
    return chain
        .after(previous)
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "the primary builds on block "
                        + previous.getHeader().getNumber()
                        + " whose config it does not know"));
  }

  /**
   * The previous block's header and metadata (its data stays in the proposal's requests: only the
   * header hash matters to find the config in force after it).
   */
  private Block previousBlock(@Nullable Proposal previous) {
    if (previous == null) {
      return base;
    }
    try {
      return Block.parseFrom(previous.payload());
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(
          "accepted proposal " + previous.sequence() + " is not a block header", e);
    }
  }

  private static ByteString consenterMetadata(long sequence) {
    return ViewMetadata.ofSequence(0, sequence, 0).toByteString();
  }
}
