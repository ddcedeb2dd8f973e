package io.rubinbft.orderer.policy;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.ledger.BlockHashing;
import io.rubinbft.orderer.crypto.Fixtures;
import java.util.ArrayList;
import java.util.List;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.IdentifierHeader;
import org.hyperledger.fabric.protos.common.Metadata;
import org.hyperledger.fabric.protos.common.MetadataSignature;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Fabric's blocks 1..9 carry 3 consenter signatures each; /Channel/Orderer/BlockValidation (3 of
 * the 4 consenters) must accept them, and must not with one signature byte flipped.
 */
class BlockValidationTest {

  private static final ChannelPolicies POLICIES = GenesisChannel.policies();

  /** BFT form: signed bytes = metadata.value || identifier_header || header DER. */
  static List<SignedData> signatures(Block block) throws InvalidProtocolBufferException {
    Metadata metadata = Metadata.parseFrom(block.getMetadata().getMetadata(0));
    ByteString header = ByteString.copyFrom(BlockHashing.headerDer(block.getHeader()));
    List<SignedData> signatures = new ArrayList<>();
    for (MetadataSignature signature : metadata.getSignaturesList()) {
      IdentifierHeader identifier = IdentifierHeader.parseFrom(signature.getIdentifierHeader());
      ByteString signed =
          metadata.getValue().concat(signature.getIdentifierHeader()).concat(header);
      signatures.add(
          new SignedData(
              signed,
              GenesisChannel.consenterIdentity(identifier.getIdentifier()),
              signature.getSignature()));
    }
    return signatures;
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9})
  void fabricsConsenterSignaturesSatisfyBlockValidation(int number)
      throws InvalidProtocolBufferException {
    List<SignedData> signatures = signatures(Fixtures.block(number));

    assertThat(signatures).hasSize(3);
    assertThat(POLICIES.verifiedSigners(signatures)).hasSize(3);
    assertThat(POLICIES.evaluate(PolicyPaths.BLOCK_VALIDATION, signatures))
        .isEqualTo(PolicyResult.satisfiedResult());
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 6, 9})
  void oneFlippedSignatureByteLeavesTooFewSigners(int number)
      throws InvalidProtocolBufferException {
    for (int victim = 0; victim < 3; victim++) {
      List<SignedData> signatures = new ArrayList<>(signatures(Fixtures.block(number)));
      SignedData original = signatures.get(victim);
      byte[] flipped = original.signature().toByteArray();
      flipped[flipped.length - 1] ^= 0x01;
      signatures.set(
          victim,
          new SignedData(original.data(), original.identity(), ByteString.copyFrom(flipped)));

      assertThat(POLICIES.evaluate(PolicyPaths.BLOCK_VALIDATION, signatures).failure())
          .as("block %d, signature %d flipped", number, victim)
          .isEqualTo("signature set did not satisfy policy");
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 8})
  void twoSignaturesAreNotAQuorum(int number) throws InvalidProtocolBufferException {
    List<SignedData> signatures = signatures(Fixtures.block(number)).subList(0, 2);

    assertThat(POLICIES.evaluate(PolicyPaths.BLOCK_VALIDATION, signatures).satisfied()).isFalse();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "blocks/other-nodes/bft-001.orderer2.block",
        "blocks/other-nodes/bft-001.orderer3.block",
        "blocks/other-nodes/bft-001.orderer4.block",
        "blocks/header-with-sig/bft-005.block",
        "blocks/header-with-sig/bft-007.block"
      })
  void otherNodesCopiesWithTheirOwnSignatureSetsAreValidToo(String file)
      throws InvalidProtocolBufferException {
    List<SignedData> signatures = signatures(Block.parseFrom(Fixtures.bytes(file)));

    assertThat(POLICIES.evaluate(PolicyPaths.BLOCK_VALIDATION, signatures))
        .isEqualTo(PolicyResult.satisfiedResult());
  }
}
