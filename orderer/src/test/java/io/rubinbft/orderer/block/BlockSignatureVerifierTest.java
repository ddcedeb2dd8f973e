package io.rubinbft.orderer.block;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.orderer.channel.Fixtures;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.IdentifierHeader;
import org.hyperledger.fabric.protos.common.MetadataSignature;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Our verifier against the signatures Fabric's BFT orderers put on blocks 1..9. */
class BlockSignatureVerifierTest {

  private static BlockSignatureVerifier verifier;

  @BeforeAll
  static void setUp() {
    verifier = FixtureChain.verifier();
  }

  @Test
  void acceptsEveryFixtureBlockWithTheRecordedSigners() {
    for (int n = 1; n < FixtureChain.HEIGHT; n++) {
      Block block = Fixtures.block(n);
      SignatureCheck check = verifier.check(block.getHeader(), block.getMetadata());
      assertThat(check.invalidReason()).as("block %d", n).isEmpty();
      assertThat(check.problems()).isEmpty();
      assertThat(check.quorum()).isEqualTo(3);
      List<Long> recorded = new ArrayList<>();
      for (JsonElement id : FixtureChain.facts(n).getAsJsonArray("valid_signer_ids")) {
        recorded.add(id.getAsLong());
      }
      assertThat(check.validSigners()).containsExactlyElementsOf(recorded);
    }
  }

  @Test
  void rejectsEachBlockWithOneSignatureByteFlipped() throws InvalidProtocolBufferException {
    for (int n = 1; n < FixtureChain.HEIGHT; n++) {
      Block block = Fixtures.block(n);
      List<MetadataSignature> signatures = signatures(block);
      for (int k = 0; k < signatures.size(); k++) {
        MetadataSignature original = signatures.get(k);
        byte[] flipped = original.getSignature().toByteArray();
        flipped[flipped.length - 5] ^= 0x01;
        List<MetadataSignature> changed = new ArrayList<>(signatures);
        changed.set(k, original.toBuilder().setSignature(ByteString.copyFrom(flipped)).build());
        SignatureCheck check = check(SignedBlocks.withSignatures(block, changed));
        String reason = check.invalidReason().orElseThrow();
        assertThat(reason)
            .as("block %d signature %d", n, k)
            .startsWith("block " + n + " has 2 valid consenter signatures")
            .contains("but needs 3 of 4")
            .contains("signature " + k + " by consenter " + signerId(original));
      }
    }
  }

  @Test
  void rejectsADuplicateSigner() throws InvalidProtocolBufferException {
    for (int n = 1; n < FixtureChain.HEIGHT; n++) {
      Block block = Fixtures.block(n);
      List<MetadataSignature> signatures = new ArrayList<>(signatures(block));
      signatures.set(1, signatures.get(0));
      SignatureCheck check = check(SignedBlocks.withSignatures(block, signatures));
      assertThat(check.invalidReason())
          .hasValueSatisfying(
              reason ->
                  assertThat(reason)
                      .contains(
                          "signature 1 is a second one by consenter "
                              + signerId(signatures.get(0))));
    }
  }

  @Test
  void rejectsASignerIdNotInTheMapping() throws InvalidProtocolBufferException {
    for (int n = 1; n < FixtureChain.HEIGHT; n++) {
      Block block = Fixtures.block(n);
      List<MetadataSignature> signatures = new ArrayList<>(signatures(block));
      IdentifierHeader header = IdentifierHeader.parseFrom(signatures.get(2).getIdentifierHeader());
      signatures.set(
          2,
          signatures.get(2).toBuilder()
              .setIdentifierHeader(header.toBuilder().setIdentifier(9).build().toByteString())
              .build());
      SignatureCheck check = check(SignedBlocks.withSignatures(block, signatures));
      assertThat(check.invalidReason())
          .hasValueSatisfying(
              reason -> assertThat(reason).contains("signature 2 names consenter 9, which is not"));
    }
  }

  @Test
  void aQuorumCountsEvenBesideABadExtraSignature() throws InvalidProtocolBufferException {
    // As with Fabric's policy evaluation: a quorum of valid, distinct signers certifies the block.
    Block block = Fixtures.block(1);
    List<MetadataSignature> signatures = new ArrayList<>(signatures(block));
    signatures.add(signatures.get(0));
    SignatureCheck check = check(SignedBlocks.withSignatures(block, signatures));
    assertThat(check.hasQuorum()).isTrue();
    assertThat(check.problems()).hasSize(1);
  }

  @Test
  void refusesMoreSignaturesThanConsenters() throws InvalidProtocolBufferException {
    Block block = Fixtures.block(1);
    List<MetadataSignature> signatures = new ArrayList<>(signatures(block));
    signatures.addAll(signatures(block));
    assertThat(check(SignedBlocks.withSignatures(block, signatures)).invalidReason())
        .contains(
            "block 1 has 0 valid consenter signatures [] but needs 3 of 4; block carries 6"
                + " signatures but the channel has 4 consenters");
  }

  @Test
  void signaturesDoNotTransferToAnotherHeader() {
    Block block = Fixtures.block(2);
    SignatureCheck check =
        verifier.check(
            block.getHeader().toBuilder().setNumber(3).build(), Fixtures.block(2).getMetadata());
    assertThat(check.validSigners()).isEmpty();
    assertThat(check.hasQuorum()).isFalse();
  }

  @Test
  void theGenesisBlockCarriesNoSignatures() {
    Block genesis = Fixtures.block(0);
    assertThat(verifier.check(genesis.getHeader(), genesis.getMetadata()).invalidReason())
        .contains("block 0 has 0 valid consenter signatures [] but needs 3 of 4");
  }

  @Test
  void headerWithSigCopiesVerifyWithoutData() {
    for (int n = 1; n < FixtureChain.HEIGHT; n++) {
      Block headerOnly =
          Fixtures.parseBlock(String.format("blocks/header-with-sig/bft-%03d.block", n));
      boolean config = n == 6 || n == 7;
      assertThat(headerOnly.hasData()).as("block %d keeps data", n).isEqualTo(config);
      assertThat(headerOnly.getHeader()).isEqualTo(Fixtures.block(n).getHeader());
      assertThat(check(headerOnly).invalidReason()).as("block %d", n).isEmpty();
    }
  }

  @Test
  void otherNodesCopiesOfBlockOneVerifyWithTheirOwnSigners() {
    JsonObject blockOne =
        JsonParser.parseString(
                new String(
                    Fixtures.bytes("blocks/other-nodes/compare-nodes.json"),
                    StandardCharsets.UTF_8))
            .getAsJsonArray()
            .get(1)
            .getAsJsonObject();
    for (int node = 2; node <= 4; node++) {
      Block copy = Fixtures.parseBlock("blocks/other-nodes/bft-001.orderer" + node + ".block");
      SignatureCheck check = check(copy);
      assertThat(check.invalidReason()).as("orderer%d", node).isEmpty();
      assertThat(copy.getHeader()).isEqualTo(Fixtures.block(1).getHeader());
      List<Long> recorded = new ArrayList<>();
      for (JsonElement id :
          blockOne.getAsJsonObject("valid_signer_ids").getAsJsonArray("orderer" + node)) {
        recorded.add(id.getAsLong());
      }
      assertThat(check.validSigners()).as("orderer%d", node).containsExactlyElementsOf(recorded);
    }
  }

  private static SignatureCheck check(Block block) {
    return verifier.check(block.getHeader(), block.getMetadata());
  }

  private static List<MetadataSignature> signatures(Block block)
      throws InvalidProtocolBufferException {
    return SignedBlocks.signatures(block.getMetadata()).getSignaturesList();
  }

  private static long signerId(MetadataSignature signature) {
    try {
      return IdentifierHeader.parseFrom(signature.getIdentifierHeader()).getIdentifier();
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(e);
    }
  }
}
