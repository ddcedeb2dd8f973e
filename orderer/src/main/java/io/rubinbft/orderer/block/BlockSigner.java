package io.rubinbft.orderer.block;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.ledger.BlockHashing;
import io.rubinbft.orderer.crypto.EcdsaSigner;
import java.security.SecureRandom;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.IdentifierHeader;
import org.hyperledger.fabric.protos.common.MetadataSignature;

/**
 * Makes this consenter's signature on a block in Fabric v3's BFT form: empty {@code
 * signature_header}, {@code identifier_header = IdentifierHeader{identifier: consenter id, nonce:
 * 24 random bytes}}, and an ECDSA signature over {@code SIGNATURES value || identifier_header ||
 * header DER}. Peers find the signer's identity by the id in the channel's ConsenterMapping.
 */
public final class BlockSigner {

  /** Fabric's nonce length ({@code crypto.GetRandomNonce}). */
  public static final int NONCE_BYTES = 24;

  private final long consenterId;
  private final EcdsaSigner signer;
  private final SecureRandom random;

  /**
   * @param consenterId this node's id in the ConsenterMapping
   * @param signer holds the private key of the consenter's identity certificate
   */
  public BlockSigner(long consenterId, EcdsaSigner signer, SecureRandom random) {
    if (consenterId < 1 || consenterId > 0xFFFF_FFFFL) {
      throw new IllegalArgumentException(
          "consenter id " + consenterId + " is not a uint32 above 0");
    }
    this.consenterId = consenterId;
    this.signer = signer;
    this.random = random;
  }

  /** This consenter's signature over {@code block}'s header and SIGNATURES value. */
  public MetadataSignature sign(Block block) {
    byte[] nonce = new byte[NONCE_BYTES];
    random.nextBytes(nonce);
    ByteString identifierHeader =
        IdentifierHeader.newBuilder()
            .setIdentifier((int) consenterId)
            .setNonce(ByteString.copyFrom(nonce))
            .build()
            .toByteString();
    ByteString value;
    try {
      value = SignedBlocks.signatures(block.getMetadata()).getValue();
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(
          "refusing to sign block " + block.getHeader().getNumber() + ": " + e.getMessage(), e);
    }
    byte[] signature =
        signer.sign(
            value.toByteArray(),
            identifierHeader.toByteArray(),
            BlockHashing.headerDer(block.getHeader()));
    return MetadataSignature.newBuilder()
        .setIdentifierHeader(identifierHeader)
        .setSignature(ByteString.copyFrom(signature))
        .build();
  }
}
