package io.rubinbft.ledger;

import com.google.protobuf.ByteString;
import org.hyperledger.fabric.protos.common.Block;

/**
 * A block read from the ledger: its number, its bytes exactly as appended, and those bytes parsed.
 * Every read has re-checked the bytes' checksum, the header number and the data hash.
 */
public record StoredBlock(long number, ByteString bytes, Block block) {}
