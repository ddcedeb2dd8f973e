package io.rubinbft.net.security;

import io.rubinbft.net.frame.FrameDescriptor;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * AES-256-GCM over a frame, in place: the header is additional authenticated data, the payload is
 * encrypted, and the 16-byte tag follows it. One instance per direction of a connection, keyed once
 * at the handshake; the nonce is the frame's sequence number (big-endian after 4 zero bytes), which
 * a sender never repeats under one key: the cipher refuses a repeated nonce in a row, so a bug that
 * would repeat one fails loudly instead of leaking the key stream. The cipher is the provider's
 * ({@link GcmProvider}); nothing here is hand-written cryptography.
 */
public final class FrameCipher {

  /** AES-GCM's standard 96-bit nonce: 4 zero bytes, then the 64-bit sequence number. */
  private static final int NONCE_BYTES = 12;

  private static final int TAG_BITS = FrameDescriptor.TAG_LENGTH * Byte.SIZE;

  private final Cipher cipher;
  private final SecretKey key;
  private final byte[] nonce = new byte[NONCE_BYTES];
  private final ByteBuffer nonceView = ByteBuffer.wrap(nonce);
  private final byte[] header = new byte[FrameDescriptor.HEADER_LENGTH];
  private byte[] work = new byte[0];

  FrameCipher(SecretKey key) throws GeneralSecurityException {
    this.cipher = GcmProvider.newCipher();
    this.key = key;
  }

  /**
   * Encrypts the payload of the frame of {@code frameLength} bytes in place and writes the tag over
   * its last {@link FrameDescriptor#TAG_LENGTH} bytes; the header must be final.
   */
  public void seal(UnsafeBuffer frame, int frameLength) {
    int payload = frameLength - FrameDescriptor.OVERHEAD;
    try {
      start(Cipher.ENCRYPT_MODE, frame, payload + FrameDescriptor.TAG_LENGTH);
      frame.getBytes(FrameDescriptor.HEADER_LENGTH, work, 0, payload);
      int sealed = cipher.doFinal(work, 0, payload, work, 0);
      frame.putBytes(FrameDescriptor.HEADER_LENGTH, work, 0, sealed);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("sealing frame " + sequence(frame) + " failed", e);
    }
  }

  /**
   * Whether the frame is authentic under this key and its sequence number; if so its payload is
   * decrypted in place. A frame that fails is left as it came (ciphertext), and nothing of it is
   * released: the provider checks the tag before it gives out any plaintext.
   */
  public boolean open(UnsafeBuffer frame, int frameLength) {
    int sealed = frameLength - FrameDescriptor.HEADER_LENGTH;
    try {
      start(Cipher.DECRYPT_MODE, frame, sealed);
      frame.getBytes(FrameDescriptor.HEADER_LENGTH, work, 0, sealed);
      int payload = cipher.doFinal(work, 0, sealed, work, 0);
      frame.putBytes(FrameDescriptor.HEADER_LENGTH, work, 0, payload);
      return true;
    } catch (AEADBadTagException e) {
      return false;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("opening frame " + sequence(frame) + " failed", e);
    }
  }

  private void start(int mode, UnsafeBuffer frame, int workBytes) throws GeneralSecurityException {
    nonceView.putLong(NONCE_BYTES - Long.BYTES, sequence(frame));
    cipher.init(mode, key, new GCMParameterSpec(TAG_BITS, nonce));
    frame.getBytes(0, header);
    cipher.updateAAD(header);
    if (workBytes > work.length) {
      // Grows once to the largest frame (the receive side checked it against the slot size).
      work = new byte[workBytes];
    }
  }

  private static long sequence(UnsafeBuffer frame) {
    return frame.getLong(FrameDescriptor.SEQUENCE_OFFSET);
  }
}
