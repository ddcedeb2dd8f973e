package io.rubinbft.orderer.consensus;

import io.rubinbft.orderer.crypto.Sha256;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The envelopes this replica already validated at Broadcast ingress (signature, creator, Writers),
 * by the SHA-256 of their bytes: when the same bytes come back in a proposal, the backup's check
 * need not verify the signature again. Signature checks are a BFT orderer's CPU floor, and Fabric
 * clients send every transaction to every orderer, so most proposed envelopes are in here.
 *
 * <p>Bounded: the oldest entries go first (an evicted envelope is simply verified again). A new
 * channel config must start with a new, empty set, since validity depends on the config.
 */
public final class VerifiedEnvelopes {

  private final Sha256 sha256;
  private final Map<ByteBuffer, Boolean> digests;

  public VerifiedEnvelopes(Sha256 sha256, int capacity) {
    this.sha256 = sha256;
    this.digests =
        new LinkedHashMap<>(16, 0.75f, false) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<ByteBuffer, Boolean> eldest) {
            return size() > capacity;
          }
        };
  }

  /** Records that {@code envelope} passed this node's ingress validation. */
  public void add(byte[] envelope) {
    ByteBuffer digest = ByteBuffer.wrap(sha256.hash(envelope));
    synchronized (digests) {
      digests.put(digest, Boolean.TRUE);
    }
  }

  /** Whether exactly these bytes passed this node's ingress validation (and are still known). */
  public boolean contains(byte[] envelope) {
    ByteBuffer digest = ByteBuffer.wrap(sha256.hash(envelope));
    synchronized (digests) {
      return digests.containsKey(digest);
    }
  }
}
