package io.rubinbft.bft.bench;

import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.spi.Crypto;
import io.rubinbft.bft.spi.ProposalSigner;
import java.nio.ByteBuffer;

/**
 * Crypto that costs (almost) nothing, to measure the protocol alone: a fast non-cryptographic hash
 * (distinct enough for a benchmark) and constant signatures that always verify.
 */
final class NoopCrypto implements Crypto, ProposalSigner {

  private static final byte[] SIGNATURE = {1};

  @Override
  public byte[] digest(byte[] data) {
    long a = 0x9E3779B97F4A7C15L;
    long b = 0xC2B2AE3D27D4EB4FL;
    for (byte value : data) {
      a = (a ^ value) * 0x100000001B3L;
      b = Long.rotateLeft(b ^ value, 5) * 0x9E3779B97F4A7C15L;
    }
    return ByteBuffer.allocate(16).putLong(a).putLong(b).array();
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
  public byte[] signProposal(Proposal proposal) {
    return SIGNATURE;
  }

  @Override
  public boolean verifyProposalSignature(int replica, Proposal proposal, byte[] signature) {
    return true;
  }
}
