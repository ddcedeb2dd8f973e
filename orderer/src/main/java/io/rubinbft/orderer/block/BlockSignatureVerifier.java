package io.rubinbft.orderer.block;

import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.ledger.BlockHashing;
import io.rubinbft.orderer.channel.Consenter;
import io.rubinbft.orderer.channel.ConsenterMapping;
import io.rubinbft.orderer.crypto.EcKeys;
import io.rubinbft.orderer.crypto.EcdsaVerifier;
import io.rubinbft.orderer.crypto.SignatureVerdict;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.hyperledger.fabric.protos.common.BlockHeader;
import org.hyperledger.fabric.protos.common.BlockMetadata;
import org.hyperledger.fabric.protos.common.IdentifierHeader;
import org.hyperledger.fabric.protos.common.Metadata;
import org.hyperledger.fabric.protos.common.MetadataSignature;

/**
 * Checks a block's consenter signatures as a Fabric v3 peer does for BFT channels: each signature
 * names its signer by consenter id in the identifier header; it is checked with that consenter's
 * identity key over {@code SIGNATURES value || identifier_header || header DER}; the block is
 * certified when distinct consenters with valid signatures reach the quorum {@code ceil((n+f+1)/2)}
 * (the BlockValidation policy the channel config is checked to hold). Only the header and metadata
 * are read, so HEADER_WITH_SIG blocks (data stripped) verify the same.
 */
public final class BlockSignatureVerifier {

  private final ConsenterMapping consenters;
  private final Map<Long, PublicKey> keys;
  private final EcdsaVerifier verifier;

  /**
   * @throws IllegalArgumentException when a consenter's identity key is not an EC key the provider
   *     accepts
   */
  public BlockSignatureVerifier(ConsenterMapping consenters, EcKeys keys, EcdsaVerifier verifier) {
    this.consenters = consenters;
    this.verifier = verifier;
    this.keys = new HashMap<>();
    for (Consenter consenter : consenters.consenters()) {
      try {
        this.keys.put(
            consenter.id(), keys.importPublic(consenter.identityCertificate().getPublicKey()));
      } catch (GeneralSecurityException e) {
        throw new IllegalArgumentException(
            "consenter " + consenter.id() + "'s identity key cannot be used: " + e.getMessage(), e);
      }
    }
  }

  /** Checks every signature on the block with this header and metadata. */
  public SignatureCheck check(BlockHeader header, BlockMetadata metadata) {
    int quorum = consenters.quorums().quorum();
    Metadata signatures;
    try {
      signatures = SignedBlocks.signatures(metadata);
    } catch (InvalidProtocolBufferException e) {
      return new SignatureCheck(
          header.getNumber(),
          new TreeSet<>(),
          quorum,
          consenters.size(),
          List.of("SIGNATURES metadata does not parse: " + e.getMessage()));
    }
    if (signatures.getSignaturesCount() > consenters.size()) {
      // Bounds the work a padded block can cause: no honest orderer stores more than n signatures.
      return new SignatureCheck(
          header.getNumber(),
          new TreeSet<>(),
          quorum,
          consenters.size(),
          List.of(
              "block carries "
                  + signatures.getSignaturesCount()
                  + " signatures but the channel has "
                  + consenters.size()
                  + " consenters"));
    }
    byte[] value = signatures.getValue().toByteArray();
    byte[] headerDer = BlockHashing.headerDer(header);
    TreeSet<Long> valid = new TreeSet<>();
    Set<Long> seen = new HashSet<>();
    List<String> problems = new ArrayList<>();
    for (int i = 0; i < signatures.getSignaturesCount(); i++) {
      MetadataSignature signature = signatures.getSignatures(i);
      Optional<Long> signer = signer(signature, i, problems);
      if (signer.isEmpty()) {
        continue;
      }
      if (!seen.add(signer.get())) {
        problems.add("signature " + i + " is a second one by consenter " + signer.get());
        continue;
      }
      SignatureVerdict verdict =
          verifier.verify(
              // signer() returns only consenters that have a key.
              Objects.requireNonNull(keys.get(signer.get())),
              signature.getSignature().toByteArray(),
              value,
              signature.getIdentifierHeader().toByteArray(),
              headerDer);
      if (verdict.isValid()) {
        valid.add(signer.get());
      } else {
        problems.add("signature " + i + " by consenter " + signer.get() + ": " + verdict.reason());
      }
    }
    return new SignatureCheck(header.getNumber(), valid, quorum, consenters.size(), problems);
  }

  /** The consenter id a signature names, if it is in BFT form and names a known consenter. */
  private Optional<Long> signer(MetadataSignature signature, int index, List<String> problems) {
    if (!signature.getSignatureHeader().isEmpty() || signature.getIdentifierHeader().isEmpty()) {
      problems.add(
          "signature " + index + " has no identifier header (BFT signatures name a consenter id)");
      return Optional.empty();
    }
    long id;
    try {
      id =
          Integer.toUnsignedLong(
              IdentifierHeader.parseFrom(signature.getIdentifierHeader()).getIdentifier());
    } catch (InvalidProtocolBufferException e) {
      problems.add("signature " + index + ": identifier header does not parse");
      return Optional.empty();
    }
    if (!keys.containsKey(id)) {
      problems.add("signature " + index + " names consenter " + id + ", which is not a consenter");
      return Optional.empty();
    }
    return Optional.of(id);
  }
}
