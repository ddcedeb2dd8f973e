package io.rubinbft.orderer.consensus;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.bft.ArchiveRead;
import io.rubinbft.bft.CommitSignature;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.message.Decisions;
import io.rubinbft.bft.message.SignedBytes;
import io.rubinbft.bft.spi.Crypto;
import io.rubinbft.ledger.BlockCursor;
import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.ledger.StoredBlock;
import io.rubinbft.orderer.block.CommitViews;
import io.rubinbft.orderer.block.ProposalBlocks;
import io.rubinbft.orderer.block.SignedBlocks;
import io.rubinbft.orderer.channel.ConsenterMapping;
import io.rubinbft.orderer.crypto.Sha256;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.IdentifierHeader;
import org.hyperledger.fabric.protos.common.MetadataSignature;

/**
 * Serves bft-core's {@link ArchiveRead}s from the channel's ledger, so a replica any distance
 * behind catches up: block {@code s} is decision {@code s} (see {@link LedgerWriter}), and as
 * stored it carries the consenters' signatures, which are the commit certificate, made in the view
 * its consenter metadata names ({@link CommitViews}). The proposal is rebuilt exactly as it was
 * proposed (the block without signatures and data, its consenter metadata back at view 0, as
 * payload; the envelopes as requests under their {@link FabricRequests} ids), and the decision
 * names the certificate's view, so its digest, the chain and every signature check out at the
 * requester, which verifies them all itself.
 */
public final class LedgerDecisionArchive implements DecisionArchive {

  private final ChannelLedger ledger;
  private final ConsenterMapping consenters;
  private final Crypto crypto;
  private final Sha256 sha256;

  /**
   * @param crypto the replica's crypto provider (its digest is the proposal digest)
   */
  public LedgerDecisionArchive(
      ChannelLedger ledger, ConsenterMapping consenters, Crypto crypto, Sha256 sha256) {
    this.ledger = ledger;
    this.consenters = consenters;
    this.crypto = crypto;
    this.sha256 = sha256;
  }

  /**
   * The decisions {@code read} asks for, stopping early at the ledger's height and where an answer
   * is cut ({@link Decisions.Budget}: the read's {@code maxBytes} as bft-core counts them, a
   * block's envelopes with their request ids, the cut of the replica's answers from memory too; at
   * least one); the first chains to the requester's {@code read.previous()}. Blocks are read and
   * rebuilt one at a time, so a read holds no more than its answer. A shorter answer is complete as
   * far as it goes: the requester asks again from where it ends.
   */
  @Override
  public List<Decision> decisions(ArchiveRead read) {
    BlockCursor cursor = ledger.cursor(read.from());
    Decisions.Budget budget = new Decisions.Budget(read.maxCount(), read.maxBytes());
    List<Decision> decisions = new ArrayList<>();
    Digest previous = read.previous();
    while (budget.open()) {
      Optional<StoredBlock> next = cursor.next();
      if (next.isEmpty()) {
        break;
      }
      Decision decision = decision(next.get().block(), previous);
      if (!budget.take(decision)) {
        break;
      }
      previous = decision.digest();
      decisions.add(decision);
    }
    return decisions;
  }

  private Decision decision(Block block, Digest previous) {
    Block signedInView = SignedBlocks.withSignatures(block, List.of());
    long view = CommitViews.viewOf(signedInView);
    Block unsigned = CommitViews.inView(signedInView, 0);
    List<Request> requests = new ArrayList<>(block.getData().getDataCount());
    for (ByteString envelope : block.getData().getDataList()) {
      requests.add(FabricRequests.ofOrdered(envelope.toByteArray(), sha256));
    }
    Proposal proposal =
        new Proposal(
            block.getHeader().getNumber(), previous, requests, ProposalBlocks.payload(unsigned));
    Digest digest = new Digest(crypto.digest(SignedBytes.proposal(proposal)));
    return new Decision(proposal, digest, view, certificate(block));
  }

  private List<CommitSignature> certificate(Block block) {
    List<MetadataSignature> signatures;
    try {
      signatures = SignedBlocks.signatures(block.getMetadata()).getSignaturesList();
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(
          "ledger block " + block.getHeader().getNumber() + " has no SIGNATURES metadata", e);
    }
    List<CommitSignature> certificate = new ArrayList<>(signatures.size());
    for (MetadataSignature signature : signatures) {
      replicaOf(signature)
          .ifPresent(
              replica -> certificate.add(new CommitSignature(replica, signature.toByteArray())));
    }
    return certificate;
  }

  /** The replica index of the signing consenter; empty for a signer that is not one. */
  private Optional<Integer> replicaOf(MetadataSignature signature) {
    try {
      long consenterId =
          Integer.toUnsignedLong(
              IdentifierHeader.parseFrom(signature.getIdentifierHeader()).getIdentifier());
      return consenters.replicaIndex(consenterId);
    } catch (InvalidProtocolBufferException e) {
      return Optional.empty();
    }
  }
}
