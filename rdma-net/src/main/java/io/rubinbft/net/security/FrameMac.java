package io.rubinbft.net.security;

import io.rubinbft.net.frame.FrameDescriptor;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.SecretKey;
import javax.crypto.ShortBufferException;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * HMAC-SHA256, truncated to {@link FrameDescriptor#MAC_LENGTH} bytes, over a frame in place: one
 * instance per direction of a connection, keyed once at the handshake. Frames must be wrapped over
 * a {@link ByteBuffer} (the rings' registered memory is), which the MAC reads without copying.
 */
public final class FrameMac {

  private final Mac mac;
  private final byte[] digest;
  private final byte[] received = new byte[FrameDescriptor.MAC_LENGTH];

  FrameMac(SecretKey key) throws GeneralSecurityException {
    this.mac = Mac.getInstance("HmacSHA256");
    this.mac.init(key);
    this.digest = new byte[mac.getMacLength()];
  }

  /** Writes the MAC of the frame's first {@code frameLength - MAC_LENGTH} bytes after them. */
  public void seal(UnsafeBuffer frame, int frameLength) {
    compute(frame, frameLength);
    frame.putBytes(FrameDescriptor.macOffset(frameLength), digest, 0, FrameDescriptor.MAC_LENGTH);
  }

  /** Whether the frame's MAC is the one its bytes and this key give (in constant time). */
  public boolean verify(UnsafeBuffer frame, int frameLength) {
    compute(frame, frameLength);
    frame.getBytes(FrameDescriptor.macOffset(frameLength), received);
    int difference = 0;
    for (int i = 0; i < received.length; i++) {
      difference |= received[i] ^ digest[i];
    }
    return difference == 0;
  }

  private void compute(UnsafeBuffer frame, int frameLength) {
    ByteBuffer bytes = frame.byteBuffer();
    if (bytes == null) {
      throw new IllegalStateException("frame buffer is not backed by a ByteBuffer");
    }
    int position = bytes.position();
    int limit = bytes.limit();
    int start = frame.wrapAdjustment();
    bytes.limit(start + FrameDescriptor.macOffset(frameLength)).position(start);
    mac.update(bytes);
    bytes.limit(limit).position(position);
    try {
      mac.doFinal(digest, 0);
    } catch (ShortBufferException e) {
      throw new IllegalStateException("digest buffer of " + digest.length + " bytes", e);
    }
  }
}
