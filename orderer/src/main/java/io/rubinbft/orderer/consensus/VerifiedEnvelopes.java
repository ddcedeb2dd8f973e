package io.rubinbft.orderer.consensus;

import com.google.protobuf.ByteString;
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
    remember(sha256.hash(envelope));
  }

  /** Records that {@code envelope} passed this node's validation (read in place, not copied). */
  public void add(ByteString envelope) {
    remember(sha256.hash(envelope));
  }

  /**
   * Whether exactly these bytes passed this node's validation (and are still known); a proposed
   * block's envelope is read in place, not copied.
   */
  public boolean contains(ByteString envelope) {
    ByteBuffer digest = ByteBuffer.wrap(sha256.hash(envelope));
    synchronized (digests) {
      return digests.containsKey(digest);
    }
  }

  private void remember(byte[] digest) {
    synchronized (digests) {
      digests.put(ByteBuffer.wrap(digest), Boolean.TRUE);
    }
  }
}
