package io.rubinbft.orderer.block;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.orderer.channel.BatchLimits;
import io.rubinbft.orderer.channel.Fixtures;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.BlockData;
import org.hyperledger.fabric.protos.common.Envelope;
import org.junit.jupiter.api.Test;

/** A backup checks each fixture block, unsigned, as if the primary had proposed it. */
class ProposedBlockVerifierTest {

  private static final BatchLimits LIMITS = new BatchLimits(20, 10_485_760, 2_097_152);
  private static final ProposedBlockVerifier ACCEPT_ALL =
      new ProposedBlockVerifier(e -> Optional.empty());

  @Test
  void acceptsEveryFixtureBlockAsAProposal() {
    for (int n = 1; n < FixtureChain.HEIGHT; n++) {
      assertThat(ACCEPT_ALL.invalidReason(proposal(n), expectations(n)))
          .as("block %d", n)
          .isEmpty();
    }
  }

  @Test
  void rejectsAWrongNumber() {
    Block proposal = proposal(3);
    Block renumbered =
        proposal.toBuilder().setHeader(proposal.getHeader().toBuilder().setNumber(4)).build();
    assertThat(ACCEPT_ALL.invalidReason(renumbered, expectations(3)))
        .contains("block number is 4 but expected 3");
  }

  @Test
  void rejectsAWrongPreviousHash() {
    ProposalExpectations afterBlockOne = expectations(2);
    assertThat(ACCEPT_ALL.invalidReason(proposal(3), withPrevious(afterBlockOne, 2)))
        .hasValueSatisfying(
            reason ->
                assertThat(reason)
                    .startsWith("previous hash is ")
                    .contains(FixtureChain.facts(3).get("previous_hash").getAsString()));
  }

  @Test
  void rejectsDataThatDoesNotMatchTheDataHash() {
    Block proposal = proposal(1);
    Block swapped =
        proposal.toBuilder()
            .setData(
                proposal.getData().toBuilder().setData(0, Fixtures.block(2).getData().getData(0)))
            .build();
    assertThat(ACCEPT_ALL.invalidReason(swapped, expectations(1)))
        .hasValueSatisfying(
            reason ->
                assertThat(reason)
                    .startsWith(
                        "data hash is " + FixtureChain.facts(1).get("data_hash").getAsString())
                    .contains(" but the envelopes hash to "));
  }

  @Test
  void rejectsMoreEnvelopesThanTheBatchSize() {
    ProposalExpectations tight = expectations(1);
    tight =
        new ProposalExpectations(
            tight.previous(),
            tight.lastConfigIndex(),
            new BatchLimits(9, 10_485_760, 2_097_152),
            tight.consenterMetadata());
    assertThat(ACCEPT_ALL.invalidReason(proposal(1), tight))
        .contains("block has 10 envelopes but BatchSize.MaxMessageCount is 9");
    ProposalExpectations small =
        new ProposalExpectations(
            tight.previous(), 0, new BatchLimits(20, 12_000, 12_000), tight.consenterMetadata());
    assertThat(ACCEPT_ALL.invalidReason(proposal(1), small))
        .hasValueSatisfying(r -> assertThat(r).endsWith("but BatchSize.AbsoluteMaxBytes is 12000"));
  }

  @Test
  void rejectsAWrongLastConfigOrConsenterMetadata() {
    ProposalExpectations expected = expectations(8);
    ProposalExpectations staleConfig =
        new ProposalExpectations(expected.previous(), 6, LIMITS, expected.consenterMetadata());
    assertThat(ACCEPT_ALL.invalidReason(proposal(8), staleConfig))
        .hasValueSatisfying(
            reason ->
                assertThat(reason)
                    .startsWith("metadata entry [0] SIGNATURES is ")
                    .contains("(last config 6, consenter metadata 10081807, no signatures)"));
    ProposalExpectations otherView =
        new ProposalExpectations(
            expected.previous(), 7, LIMITS, ViewMetadata.ofSequence(1, 8, 0).toByteString());
    assertThat(ACCEPT_ALL.invalidReason(proposal(8), otherView))
        .hasValueSatisfying(reason -> assertThat(reason).contains("consenter metadata 08011008"));
  }

  @Test
  void rejectsASignedOrMisshapenProposal() {
    assertThat(ACCEPT_ALL.invalidReason(Fixtures.block(4), expectations(4)))
        .hasValueSatisfying(
            reason -> assertThat(reason).startsWith("metadata entry [0] SIGNATURES"));
    Block proposal = proposal(4);
    Block sixEntries =
        proposal.toBuilder()
            .setMetadata(proposal.getMetadata().toBuilder().addMetadata(ByteString.EMPTY))
            .build();
    assertThat(ACCEPT_ALL.invalidReason(sixEntries, expectations(4)))
        .contains("metadata has 6 entries but expected 5");
    Block filtered =
        proposal.toBuilder()
            .setMetadata(
                proposal.getMetadata().toBuilder().setMetadata(2, ByteString.copyFromUtf8("x")))
            .build();
    assertThat(ACCEPT_ALL.invalidReason(filtered, expectations(4)))
        .hasValueSatisfying(
            r -> assertThat(r).startsWith("metadata entry [2] TRANSACTIONS_FILTER is 78"));
  }

  @Test
  void rejectsAConfigEnvelopeInAMultiEnvelopeBlock() {
    List<ByteString> envelopes = new ArrayList<>(Fixtures.block(5).getData().getDataList());
    envelopes.add(Fixtures.block(6).getData().getData(0));
    ProposalExpectations expected = expectations(5);
    Block proposal =
        BlockAssembler.assemble(
            expected.previous(),
            envelopes,
            expected.lastConfigIndex(),
            expected.consenterMetadata());
    assertThat(ACCEPT_ALL.invalidReason(proposal, expected))
        .contains(
            "envelope 3 is a CONFIG envelope in a block of 4; a CONFIG envelope must be alone in"
                + " its block");
  }

  @Test
  void rejectsTheSameEnvelopeTwice() {
    List<ByteString> envelopes = new ArrayList<>(Fixtures.block(1).getData().getDataList());
    envelopes.add(envelopes.get(4));
    assertThat(ACCEPT_ALL.invalidReason(assembled(1, envelopes), expectations(1)))
        .contains("envelopes 4 and 10 are the same envelope");
  }

  @Test
  void rejectsTheSameEnvelopeWithoutATxIdTwice() {
    // No readable channel header, so no tx id: such envelopes are compared by their bytes.
    ByteString headerless =
        Envelope.newBuilder()
            .setPayload(ByteString.copyFromUtf8("not a payload"))
            .build()
            .toByteString();
    List<ByteString> envelopes = new ArrayList<>(Fixtures.block(5).getData().getDataList());
    envelopes.add(headerless);
    envelopes.add(headerless);
    assertThat(ACCEPT_ALL.invalidReason(assembled(5, envelopes), expectations(5)))
        .contains("envelopes 3 and 4 are the same envelope");
  }

  @Test
  void rejectsTheSameTransactionTwice() throws InvalidProtocolBufferException {
    List<ByteString> envelopes = new ArrayList<>(Fixtures.block(5).getData().getDataList());
    Envelope resigned = Envelope.parseFrom(envelopes.get(0));
    envelopes.add(
        resigned.toBuilder().setSignature(ByteString.copyFromUtf8("other")).build().toByteString());
    String txId =
        FixtureChain.facts(5)
            .getAsJsonArray("envelopes")
            .get(0)
            .getAsJsonObject()
            .get("tx_id")
            .getAsString();
    assertThat(ACCEPT_ALL.invalidReason(assembled(5, envelopes), expectations(5)))
        .contains("envelopes 0 and 3 carry the same tx id " + txId);
  }

  @Test
  void envelopeChecksComeFromTheValidationSeam() {
    ByteString bad = Fixtures.block(5).getData().getData(2);
    ProposedBlockVerifier verifier =
        new ProposedBlockVerifier(
            envelope ->
                envelope.equals(bad) ? Optional.of("timestamp is 2h old") : Optional.empty());
    assertThat(verifier.invalidReason(proposal(5), expectations(5)))
        .contains("envelope 2: timestamp is 2h old");
    assertThat(verifier.invalidReason(proposal(4), expectations(4))).isEmpty();
  }

  @Test
  void rejectsAnEmptyBlock() {
    Block proposal = proposal(1);
    Block empty = proposal.toBuilder().setData(BlockData.getDefaultInstance()).build();
    assertThat(ACCEPT_ALL.invalidReason(empty, expectations(1)))
        .contains("block 1 has no envelopes");
  }

  private static Block assembled(int n, List<ByteString> envelopes) {
    ProposalExpectations expected = expectations(n);
    return BlockAssembler.assemble(
        expected.previous(), envelopes, expected.lastConfigIndex(), expected.consenterMetadata());
  }

  /** Block {@code n} as its primary proposed it: no signatures yet. */
  private static Block proposal(int n) {
    return SignedBlocks.withSignatures(Fixtures.block(n), List.of());
  }

  /** What a backup holding blocks 0..n-1 expects of block n. */
  private static ProposalExpectations expectations(int n) {
    Block previous = Fixtures.block(n - 1);
    return new ProposalExpectations(
        previous.getHeader(),
        FixtureChain.ordererMetadata(previous).getLastConfig().getIndex(),
        LIMITS,
        ViewMetadata.ofSequence(0, n, n - 1).toByteString());
  }

  private static ProposalExpectations withPrevious(ProposalExpectations expected, int previous) {
    return new ProposalExpectations(
        Fixtures.block(previous).getHeader().toBuilder().setDataHash(ByteString.EMPTY).build(),
        expected.lastConfigIndex(),
        expected.limits(),
        expected.consenterMetadata());
  }
}
