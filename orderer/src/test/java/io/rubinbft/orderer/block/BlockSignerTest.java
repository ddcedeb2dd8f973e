package io.rubinbft.orderer.block;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.orderer.channel.Fixtures;
import java.security.SecureRandom;
import java.util.List;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.IdentifierHeader;
import org.hyperledger.fabric.protos.common.MetadataSignature;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Sign-then-verify with the fixture orderers' own keys (cryptogen's PKCS#8 keystore files). */
class BlockSignerTest {

  private static final SecureRandom RANDOM = new SecureRandom();
  private static BlockSignatureVerifier verifier;
  private static Block next;

  @BeforeAll
  static void setUp() {
    verifier = FixtureChain.verifier();
    // Block 10 on top of the fixture chain, holding block 9's envelopes again.
    next =
        BlockAssembler.assemble(
            Fixtures.block(9).getHeader(),
            Fixtures.block(9).getData().getDataList(),
            7,
            ViewMetadata.ofSequence(0, 10, 9).toByteString());
  }

  @Test
  void signaturesInFabricsBftForm() throws InvalidProtocolBufferException {
    MetadataSignature signature = signer(3).sign(next);
    assertThat(signature.getSignatureHeader()).isEqualTo(ByteString.EMPTY);
    IdentifierHeader header = IdentifierHeader.parseFrom(signature.getIdentifierHeader());
    assertThat(header.getIdentifier()).isEqualTo(3);
    assertThat(header.getNonce().size()).isEqualTo(24);
    assertThat(signer(3).sign(next).getIdentifierHeader())
        .as("a fresh nonce each time")
        .isNotEqualTo(signature.getIdentifierHeader());
  }

  @Test
  void aQuorumOfOurSignaturesVerifies() {
    Block signed =
        SignedBlocks.withSignatures(
            next, List.of(signer(2).sign(next), signer(4).sign(next), signer(1).sign(next)));
    SignatureCheck check = verifier.check(signed.getHeader(), signed.getMetadata());
    assertThat(check.invalidReason()).isEmpty();
    assertThat(check.validSigners()).containsExactly(1L, 2L, 4L);
    assertThat(signed.getHeader()).isEqualTo(next.getHeader());
    assertThat(signed.getData()).isEqualTo(next.getData());
    assertThat(signed.getMetadata().getMetadata(1)).isEqualTo(next.getMetadata().getMetadata(1));
  }

  @Test
  void twoSignaturesAreNotAQuorum() {
    Block signed =
        SignedBlocks.withSignatures(next, List.of(signer(1).sign(next), signer(2).sign(next)));
    assertThat(verifier.check(signed.getHeader(), signed.getMetadata()).invalidReason())
        .contains("block 10 has 2 valid consenter signatures [1, 2] but needs 3 of 4");
  }

  @Test
  void aKeyClaimingAnotherConsentersIdDoesNotCount() {
    MetadataSignature impostor =
        new BlockSigner(2, FixtureChain.ordererSigner(1), RANDOM).sign(next);
    Block signed =
        SignedBlocks.withSignatures(
            next, List.of(signer(3).sign(next), signer(4).sign(next), impostor));
    assertThat(verifier.check(signed.getHeader(), signed.getMetadata()).invalidReason())
        .hasValueSatisfying(
            reason ->
                assertThat(reason)
                    .contains(
                        "signature 2 by consenter 2: signature does not match the message and"
                            + " public key"));
  }

  private static BlockSigner signer(int n) {
    return new BlockSigner(n, FixtureChain.ordererSigner(n), RANDOM);
  }
}
