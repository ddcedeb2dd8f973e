package io.rubinbft.bft.sim;

import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.message.SignedBytes;
import io.rubinbft.bft.spi.Crypto;
import io.rubinbft.bft.spi.ProposalSigner;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * The simulated cluster's keys: SHA-256 digests and cheap keyed-hash "signatures" that only the
 * holder of a replica's secret can produce. A Byzantine replica gets only its own signer, so it can
 * lie, but cannot forge. Commit signatures carry a per-signature nonce, like Fabric's, so the
 * protocol must treat them as opaque bytes.
 */
public final class SimKeys {

  private final long[] secrets;

  public SimKeys(int replicas, long seed) {
    Random random = new Random(seed);
    secrets = new long[replicas];
    for (int i = 0; i < replicas; i++) {
      secrets[i] = random.nextLong();
    }
  }

  public static byte[] sha256(byte[] data) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(data);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  public static Digest digestOf(Proposal proposal) {
    return new Digest(sha256(SignedBytes.proposal(proposal)));
  }

  /** Replica {@code replica}'s crypto provider. */
  public Crypto crypto(int replica) {
    return new Crypto() {
      @Override
      public byte[] digest(byte[] data) {
        return sha256(data);
      }

      @Override
      public byte[] sign(byte[] data) {
        return mac(replica, 0, data);
      }

      @Override
      public boolean verify(int signer, byte[] data, byte[] signature) {
        return signer >= 0
            && signer < secrets.length
            && signature != null
            && MessageDigest.isEqual(mac(signer, 0, data), signature);
      }
    };
  }

  /** Replica {@code replica}'s commit signer; nonces come from a seeded generator. */
  public ProposalSigner signer(int replica, Random nonces) {
    return new ProposalSigner() {
      @Override
      public byte[] signProposal(long view, Proposal proposal) {
        return signCommit(replica, view, digestOf(proposal), nonces.nextLong());
      }

      @Override
      public boolean verifyProposalSignature(
          int signer, long view, Proposal proposal, byte[] signature) {
        return verifyCommit(signer, view, digestOf(proposal), signature);
      }
    };
  }

  /**
   * Node {@code node}'s crypto provider in an epoch whose replica {@code i} is node {@code
   * members.get(i)}: replica indices change across epochs, keys stay with their nodes.
   */
  public Crypto crypto(int node, List<Integer> members) {
    Crypto own = crypto(node);
    return new Crypto() {
      @Override
      public byte[] digest(byte[] data) {
        return own.digest(data);
      }

      @Override
      public byte[] sign(byte[] data) {
        return own.sign(data);
      }

      @Override
      public boolean verify(int replica, byte[] data, byte[] signature) {
        return replica >= 0
            && replica < members.size()
            && own.verify(members.get(replica), data, signature);
      }
    };
  }

  /** Node {@code node}'s commit signer in an epoch of {@code members} (as {@link #crypto}). */
  public ProposalSigner signer(int node, List<Integer> members, Random nonces) {
    return new ProposalSigner() {
      @Override
      public byte[] signProposal(long view, Proposal proposal) {
        return signCommit(node, view, digestOf(proposal), nonces.nextLong());
      }

      @Override
      public boolean verifyProposalSignature(
          int replica, long view, Proposal proposal, byte[] signature) {
        return replica >= 0
            && replica < members.size()
            && verifyCommit(members.get(replica), view, digestOf(proposal), signature);
      }
    };
  }

  /** A commit signature over {@code digest} in {@code view}: the view is part of what is signed. */
  public byte[] signCommit(int replica, long view, Digest digest, long nonce) {
    byte[] mac = mac(replica, nonce, commitBytes(view, digest));
    return ByteBuffer.allocate(16).putLong(nonce).put(mac).array();
  }

  /** The invariant checker's view: is this a valid commit signature of {@code signer} in view? */
  public boolean verifyCommit(int signer, long view, Digest digest, byte[] signature) {
    if (signer < 0 || signer >= secrets.length || signature == null || signature.length != 16) {
      return false;
    }
    long nonce = ByteBuffer.wrap(signature).getLong();
    byte[] expected = mac(signer, nonce, commitBytes(view, digest));
    return MessageDigest.isEqual(expected, Arrays.copyOfRange(signature, 8, 16));
  }

  private static byte[] commitBytes(long view, Digest digest) {
    return ByteBuffer.allocate(Long.BYTES + digest.bytes().length)
        .putLong(view)
        .put(digest.bytes())
        .array();
  }

  private byte[] mac(int replica, long nonce, byte[] data) {
    long hash = secrets[replica] ^ (nonce * 0x9E3779B97F4A7C15L);
    for (byte b : data) {
      hash = (hash ^ (b & 0xff)) * 0x100000001B3L;
      hash ^= hash >>> 29;
    }
    hash ^= hash >>> 31;
    hash *= 0xBF58476D1CE4E5B9L;
    hash ^= hash >>> 27;
    return ByteBuffer.allocate(8).putLong(hash).array();
  }
}
