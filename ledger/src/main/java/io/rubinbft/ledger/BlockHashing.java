package io.rubinbft.ledger;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.security.MessageDigest;
import org.bouncycastle.asn1.ASN1EncodableVector;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.DERSequence;
import org.hyperledger.fabric.protos.common.BlockData;
import org.hyperledger.fabric.protos.common.BlockHeader;

/**
 * Fabric's block hashing, byte for byte as Fabric's {@code protoutil} does it.
 *
 * <p>A header is hashed as SHA-256 of the DER of {@code SEQUENCE { INTEGER number, OCTET STRING
 * previous_hash, OCTET STRING data_hash }}; the next block's {@code previous_hash} is that hash,
 * and consenters sign those DER bytes. The data hash is SHA-256 over the concatenated envelope
 * bytes.
 *
 * <p>SHA-256 comes from {@link Sha256Provider} (native where it can be): hashing block data is a
 * large share of a node's CPU per transaction otherwise.
 */
public final class BlockHashing {

  private BlockHashing() {}

  /** The ASN.1 DER form of a header: what is hashed into the chain and signed by consenters. */
  public static byte[] headerDer(BlockHeader header) {
    ASN1EncodableVector fields = new ASN1EncodableVector(3);
    // Block numbers are uint64 in Fabric; Go's asn1 encodes them as non-negative big integers.
    fields.add(new ASN1Integer(new BigInteger(Long.toUnsignedString(header.getNumber()))));
    fields.add(new DEROctetString(header.getPreviousHash().toByteArray()));
    fields.add(new DEROctetString(header.getDataHash().toByteArray()));
    try {
      return new DERSequence(fields).getEncoded(ASN1Encoding.DER);
    } catch (IOException e) {
      throw new UncheckedIOException("DER encoding of an in-memory header failed", e);
    }
  }

  /** SHA-256 of {@link #headerDer}: the value the next block carries as its previous hash. */
  public static byte[] headerHash(BlockHeader header) {
    return Sha256Provider.newDigest().digest(headerDer(header));
  }

  /** SHA-256 over every envelope's bytes in order, as stored in {@code BlockData}. */
  public static byte[] dataHash(BlockData data) {
    MessageDigest digest = Sha256Provider.newDigest();
    for (ByteString envelope : data.getDataList()) {
      envelope.asReadOnlyByteBufferList().forEach(digest::update);
    }
    return digest.digest();
  }
}
