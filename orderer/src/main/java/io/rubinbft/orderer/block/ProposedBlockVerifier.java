package io.rubinbft.orderer.block;

import com.google.protobuf.ByteString;
import io.rubinbft.ledger.BlockHashing;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.BlockMetadata;
import org.hyperledger.fabric.protos.common.ChannelHeader;

/**
 * A backup's check of the primary's proposed block (the SmartBFT Verifier's job): block number,
 * previous hash, batch limits, data hash, the exact metadata layout with the right last config
 * index and consenter metadata, a CONFIG envelope only alone, and finally every envelope through
 * the {@link EnvelopeValidator}. Proposals come from a possibly Byzantine primary, so the answer is
 * a reason ("block number is 7 but expected 8"), never an exception.
 */
public final class ProposedBlockVerifier {

  private static final HexFormat HEX = HexFormat.of();
  private static final String[] ENTRY_NAMES = {
    "SIGNATURES", "LAST_CONFIG", "TRANSACTIONS_FILTER", "ORDERER", "COMMIT_HASH"
  };

  private final EnvelopeValidator envelopes;

  public ProposedBlockVerifier(EnvelopeValidator envelopes) {
    this.envelopes = envelopes;
  }

  /** Why {@code proposed} must not be accepted, or empty when it may. */
  public Optional<String> invalidReason(Block proposed, ProposalExpectations expected) {
    return structureProblem(proposed, expected)
        .or(() -> metadataProblem(proposed, expected))
        .or(() -> contentProblem(proposed.getData().getDataList()))
        .or(() -> envelopeProblem(proposed.getData().getDataList()));
  }

  private static Optional<String> structureProblem(Block proposed, ProposalExpectations expected) {
    long number = proposed.getHeader().getNumber();
    long expectedNumber = expected.previous().getNumber() + 1;
    if (number != expectedNumber) {
      return Optional.of("block number is " + number + " but expected " + expectedNumber);
    }
    ByteString previousHash = ByteString.copyFrom(BlockHashing.headerHash(expected.previous()));
    if (!proposed.getHeader().getPreviousHash().equals(previousHash)) {
      return Optional.of(
          "previous hash is "
              + hex(proposed.getHeader().getPreviousHash())
              + " but expected "
              + hex(previousHash));
    }
    List<ByteString> data = proposed.getData().getDataList();
    if (data.isEmpty()) {
      return Optional.of("block " + number + " has no envelopes");
    }
    if (data.size() > expected.limits().maxMessageCount()) {
      return Optional.of(
          "block has "
              + data.size()
              + " envelopes but BatchSize.MaxMessageCount is "
              + expected.limits().maxMessageCount());
    }
    long bytes = data.stream().mapToLong(ByteString::size).sum();
    if (bytes > expected.limits().absoluteMaxBytes()) {
      return Optional.of(
          "block has "
              + bytes
              + " envelope bytes but BatchSize.AbsoluteMaxBytes is "
              + expected.limits().absoluteMaxBytes());
    }
    ByteString dataHash = ByteString.copyFrom(BlockHashing.dataHash(proposed.getData()));
    if (!proposed.getHeader().getDataHash().equals(dataHash)) {
      return Optional.of(
          "data hash is "
              + hex(proposed.getHeader().getDataHash())
              + " but the envelopes hash to "
              + hex(dataHash));
    }
    return Optional.empty();
  }

  private static Optional<String> metadataProblem(Block proposed, ProposalExpectations expected) {
    List<ByteString> data = proposed.getData().getDataList();
    long lastConfig =
        EnvelopeHeaders.isConfigBlock(data)
            ? proposed.getHeader().getNumber()
            : expected.lastConfigIndex();
    BlockMetadata wanted = BlockAssembler.metadata(lastConfig, expected.consenterMetadata());
    BlockMetadata actual = proposed.getMetadata();
    if (actual.getMetadataCount() != wanted.getMetadataCount()) {
      return Optional.of(
          "metadata has "
              + actual.getMetadataCount()
              + " entries but expected "
              + wanted.getMetadataCount());
    }
    for (int i = 0; i < wanted.getMetadataCount(); i++) {
      if (!actual.getMetadata(i).equals(wanted.getMetadata(i))) {
        return Optional.of(
            "metadata entry ["
                + i
                + "] "
                + ENTRY_NAMES[i]
                + " is "
                + hex(actual.getMetadata(i))
                + " but expected "
                + hex(wanted.getMetadata(i))
                + " (last config "
                + lastConfig
                + ", consenter metadata "
                + hex(expected.consenterMetadata())
                + ", no signatures)");
      }
    }
    return Optional.empty();
  }

  /**
   * A CONFIG envelope only alone; no envelope twice and no tx id twice in one block (the same
   * transaction arrives at every node, and a Byzantine primary could propose it twice; duplicates
   * across blocks are the request pool's and the envelope validator's to catch).
   *
   * <p>Equal bytes mean an equal tx id, so envelopes with a tx id are compared by it and only those
   * without one (or without a readable header) by their bytes: hashing every envelope's bytes into
   * a map cost more than the rest of this check.
   */
  private static Optional<String> contentProblem(List<ByteString> data) {
    if (data.size() == 1) {
      return Optional.empty();
    }
    Map<ByteString, Integer> withoutTxId = new HashMap<>();
    Map<String, Integer> txIds = new HashMap<>();
    for (int i = 0; i < data.size(); i++) {
      Optional<ChannelHeader> header = EnvelopeHeaders.channelHeader(data.get(i));
      String txId = header.map(ChannelHeader::getTxId).orElse("");
      Integer sameBytes = txId.isEmpty() ? withoutTxId.putIfAbsent(data.get(i), i) : null;
      if (sameBytes != null) {
        return Optional.of(sameEnvelope(sameBytes, i));
      }
      if (header.isPresent() && EnvelopeHeaders.isConfig(header.get())) {
        return Optional.of(
            "envelope "
                + i
                + " is a CONFIG envelope in a block of "
                + data.size()
                + "; a"
                + " CONFIG envelope must be alone in its block");
      }
      Integer sameTx = txId.isEmpty() ? null : txIds.putIfAbsent(txId, i);
      if (sameTx != null) {
        return Optional.of(
            data.get(sameTx).equals(data.get(i))
                ? sameEnvelope(sameTx, i)
                : "envelopes " + sameTx + " and " + i + " carry the same tx id " + txId);
      }
    }
    return Optional.empty();
  }

  private static String sameEnvelope(int first, int second) {
    return "envelopes " + first + " and " + second + " are the same envelope";
  }

  private Optional<String> envelopeProblem(List<ByteString> data) {
    for (int i = 0; i < data.size(); i++) {
      Optional<String> reason = envelopes.invalidReason(data.get(i));
      if (reason.isPresent()) {
        return Optional.of("envelope " + i + ": " + reason.get());
      }
    }
    return Optional.empty();
  }

  private static String hex(ByteString bytes) {
    return HEX.formatHex(bytes.toByteArray());
  }
}
