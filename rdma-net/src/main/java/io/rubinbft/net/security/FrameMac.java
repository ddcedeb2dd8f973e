package io.rubinbft.net.security;

import io.rubinbft.net.frame.FrameDescriptor;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * AES-256-GMAC over a frame: AES-GCM with the frame's bytes before the MAC as additional
 * authenticated data and nothing to encrypt, so the 16-byte GCM tag is the MAC. One instance per
 * direction of a connection, keyed once at the handshake; the nonce is the frame's sequence number,
 * which a sender never repeats under one key (the cipher refuses a repeated nonce, so a bug that
 * would repeat one fails loudly instead of leaking the hash key). GMAC runs on AES-NI and
 * carry-less multiply, several times faster than HMAC-SHA256
 * (bench/journal/2026-11-21-02-rdma-net-echo.md, "Frame MAC"). The nonce's sequence number is
 * big-endian.
 */
public final class FrameMac {

  /** AES-GCM's standard 96-bit nonce: 4 zero bytes, then the 64-bit sequence number. */
  private static final int NONCE_BYTES = 12;

  private static final int TAG_BITS = FrameDescriptor.MAC_LENGTH * Byte.SIZE;

  private final Cipher cipher;
  private final SecretKey key;
  private final byte[] nonce = new byte[NONCE_BYTES];
  private final ByteBuffer nonceView = ByteBuffer.wrap(nonce);
  private final byte[] tag = new byte[FrameDescriptor.MAC_LENGTH];
  private final byte[] computed = new byte[FrameDescriptor.MAC_LENGTH];
  private final byte[] noPlaintext = new byte[0];
  private byte[] covering = new byte[0];
  private boolean computedBefore;
  private long lastComputed;

  FrameMac(SecretKey key) throws GeneralSecurityException {
    this.cipher = GmacProvider.newCipher();
    this.key = key;
  }

  /** Writes the MAC of the frame's first {@code frameLength - MAC_LENGTH} bytes after them. */
  public void seal(UnsafeBuffer frame, int frameLength) {
    try {
      start(Cipher.ENCRYPT_MODE, frame, frameLength);
      cipher.doFinal(tag, 0);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("sealing frame " + sequence(frame) + " failed", e);
    }
    frame.putBytes(FrameDescriptor.macOffset(frameLength), tag);
  }

  /**
   * Whether the frame's MAC is the one its bytes, its sequence number and this key give. The tag is
   * computed as {@link #seal} computes it and compared in constant time: in decrypt mode both
   * providers buffer the whole additional data before they start (one more copy of every frame,
   * which made a verify cost twice a seal at 16 KiB). The computed tag never leaves this object. A
   * frame whose sequence number is the one computed last (a replay of it) takes the decrypt path,
   * because both providers refuse to encrypt under the same nonce twice in a row.
   */
  public boolean verify(UnsafeBuffer frame, int frameLength) {
    frame.getBytes(FrameDescriptor.macOffset(frameLength), tag);
    long sequence = sequence(frame);
    try {
      if (computedBefore && sequence == lastComputed) {
        return verifyByDecrypting(frame, frameLength);
      }
      start(Cipher.ENCRYPT_MODE, frame, frameLength);
      computedBefore = true;
      lastComputed = sequence;
      cipher.doFinal(computed, 0);
      return MessageDigest.isEqual(computed, tag);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("verifying frame " + sequence + " failed", e);
    }
  }

  private boolean verifyByDecrypting(UnsafeBuffer frame, int frameLength)
      throws GeneralSecurityException {
    start(Cipher.DECRYPT_MODE, frame, frameLength);
    try {
      // Decrypting nothing checks the tag in constant time; a wrong one throws.
      cipher.doFinal(tag, 0, tag.length, noPlaintext, 0);
      return true;
    } catch (AEADBadTagException e) {
      return false;
    }
  }

  private void start(int mode, UnsafeBuffer frame, int frameLength)
      throws GeneralSecurityException {
    nonceView.putLong(NONCE_BYTES - Long.BYTES, sequence(frame));
    cipher.init(mode, key, new GCMParameterSpec(TAG_BITS, nonce));
    int covered = FrameDescriptor.macOffset(frameLength);
    if (covered > covering.length) {
      // Grows once to the largest frame (the receive side checked it against the slot size).
      covering = new byte[covered];
    }
    // Providers copy a direct buffer's AAD into a new array per call (ACCP) or buffer it (JDK);
    // one copy into an array kept for the connection's life spares the allocation.
    frame.getBytes(0, covering, 0, covered);
    cipher.updateAAD(covering, 0, covered);
  }

  private static long sequence(UnsafeBuffer frame) {
    return frame.getLong(FrameDescriptor.SEQUENCE_OFFSET);
  }
}
