package io.rubinbft.net.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.net.frame.FrameDescriptor;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.Locale;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What the per-frame cipher costs: a seal and an open of {@link FrameCipher} (AES-256-GCM,
 * encrypting the payload) against a GMAC tag computed and checked over the same frame (what wire
 * version 2 did: authentication only), per frame size. Prints numbers, asserts only that frames
 * open. Run: {@code ./test.sh -pl rdma-net -Plong -Dtest=FrameCipherBenchmark
 * -Dsurefire.failIfNoSpecifiedTests=false}
 */
@Tag("long")
class FrameCipherBenchmark {

  private static final int[] SIZES = {1024, 16 * 1024, 64 * 1024};
  private static final long BYTES_PER_ROUND = 128L << 20;

  @Test
  void sealAndOpenCostPerFrame() throws GeneralSecurityException {
    SecretKeySpec key = new SecretKeySpec(new byte[32], "AES");
    System.out.println(
        "frame bytes | AES-GCM ("
            + GcmProvider.name()
            + ") seal+open | GMAC only (same provider) tag+check");
    for (int size : SIZES) {
      UnsafeBuffer frame = new UnsafeBuffer(ByteBuffer.allocateDirect(size));
      double gcm = 0;
      double gmac = 0;
      for (int round = 0; round < 3; round++) { // the first rounds warm the JIT up
        gcm = gcmNanos(key, frame, size);
        gmac = gmacNanos(key, frame, size);
      }
      System.out.printf(
          Locale.ROOT,
          "%d | %.2f µs (%.2f GB/s) | %.2f µs (%.2f GB/s)%n",
          size,
          gcm / 1000,
          2 * size / gcm,
          gmac / 1000,
          2 * size / gmac);
    }
  }

  private static double gcmNanos(SecretKeySpec key, UnsafeBuffer frame, int size)
      throws GeneralSecurityException {
    FrameCipher sender = new FrameCipher(key);
    FrameCipher receiver = new FrameCipher(key);
    long frames = BYTES_PER_ROUND / size;
    long start = System.nanoTime();
    for (long sequence = 1; sequence <= frames; sequence++) {
      frame.putLong(FrameDescriptor.SEQUENCE_OFFSET, sequence);
      sender.seal(frame, size);
      assertThat(receiver.open(frame, size)).isTrue();
    }
    return (System.nanoTime() - start) / (double) frames;
  }

  /** Version 2's cost: the tag over the whole frame as additional data, at both ends. */
  private static double gmacNanos(SecretKeySpec key, UnsafeBuffer frame, int size)
      throws GeneralSecurityException {
    Cipher cipher = GcmProvider.newCipher();
    byte[] covering = new byte[FrameDescriptor.tagOffset(size)];
    byte[] tag = new byte[FrameDescriptor.TAG_LENGTH];
    ByteBuffer nonce = ByteBuffer.allocate(12);
    long frames = BYTES_PER_ROUND / size;
    long start = System.nanoTime();
    for (long sequence = 1; sequence <= 2 * frames; sequence++) {
      nonce.putLong(4, sequence);
      cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, nonce.array()));
      frame.getBytes(0, covering);
      cipher.updateAAD(covering);
      cipher.doFinal(tag, 0);
    }
    return (System.nanoTime() - start) / (double) frames;
  }
}
