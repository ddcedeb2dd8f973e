package io.rubinbft.bft.bench;

import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.spi.Crypto;
import io.rubinbft.bft.spi.ProposalSigner;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Crypto that costs (almost) nothing, to measure the protocol alone: a fast non-cryptographic hash
 * (distinct enough for a benchmark) and constant signatures that always verify.
 */
final class NoopCrypto implements Crypto, ProposalSigner {

  private static final byte[] SIGNATURE = {1};

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /** Eight bytes per step; the tail byte by byte. */
  @Override
  public byte[] digest(byte[] data) {
    long a = 0x9E3779B97F4A7C15L;
    long b = 0xC2B2AE3D27D4EB4FL;
    int i = 0;
    for (; i + 8 <= data.length; i += 8) {
      long word = (long) LONGS.get(data, i);
      a = Long.rotateLeft(a ^ word, 31) * 0x100000001B3L;
      b = Long.rotateLeft(b + word, 27) * 0x9E3779B97F4A7C15L;
    }
    for (; i < data.length; i++) {
      a = (a ^ data[i]) * 0x100000001B3L;
      b = Long.rotateLeft(b ^ data[i], 5) * 0x9E3779B97F4A7C15L;
    }
    return ByteBuffer.allocate(16).putLong(a ^ (b >>> 17)).putLong(b ^ (a >>> 13)).array();
  }

  @Override
  public byte[] sign(byte[] data) {
    return SIGNATURE;
  }

  @Override
  public boolean verify(int replica, byte[] data, byte[] signature) {
    return true;
  }

  @Override
  public byte[] signProposal(long view, Proposal proposal) {
    return SIGNATURE;
  }

  @Override
  public boolean verifyProposalSignature(
      int replica, long view, Proposal proposal, byte[] signature) {
    return true;
  }
}
