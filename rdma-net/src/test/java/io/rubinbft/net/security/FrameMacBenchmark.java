package io.rubinbft.net.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.net.frame.FrameDescriptor;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.Locale;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What the per-frame MAC costs: a seal and a verify of {@link FrameMac} (AES-256-GMAC) against the
 * HMAC-SHA256 it replaced, per frame size. Prints numbers, asserts only that frames verify. Run:
 * {@code ./test.sh -pl rdma-net -Plong -Dtest=FrameMacBenchmark
 * -Dsurefire.failIfNoSpecifiedTests=false}
 */
@Tag("long")
class FrameMacBenchmark {

  private static final int[] SIZES = {1024, 16 * 1024, 64 * 1024};
  private static final long BYTES_PER_ROUND = 128L << 20;

  @Test
  void sealAndVerifyCostPerFrame() throws GeneralSecurityException {
    byte[] key = new byte[32];
    System.out.println(
        "frame bytes | GMAC (" + GmacProvider.name() + ") seal+verify | HMAC-SHA256 (JDK) x2");
    for (int size : SIZES) {
      UnsafeBuffer frame = new UnsafeBuffer(ByteBuffer.allocateDirect(size));
      double gmac = 0;
      double hmac = 0;
      for (int round = 0; round < 3; round++) { // the first rounds warm the JIT up
        gmac = gmacNanos(new SecretKeySpec(key, "AES"), frame, size);
        hmac = hmacNanos(new SecretKeySpec(key, "HmacSHA256"), frame, size);
      }
      System.out.printf(
          Locale.ROOT,
          "%d | %.2f µs (%.1f GB/s) | %.2f µs (%.1f GB/s)%n",
          size,
          gmac / 1000,
          2 * size / gmac,
          hmac / 1000,
          2 * size / hmac);
    }
  }

  private static double gmacNanos(SecretKeySpec key, UnsafeBuffer frame, int size)
      throws GeneralSecurityException {
    FrameMac sender = new FrameMac(key);
    FrameMac receiver = new FrameMac(key);
    long frames = BYTES_PER_ROUND / size;
    long start = System.nanoTime();
    for (long sequence = 1; sequence <= frames; sequence++) {
      frame.putLong(FrameDescriptor.SEQUENCE_OFFSET, sequence);
      sender.seal(frame, size);
      assertThat(receiver.verify(frame, size)).isTrue();
    }
    return (System.nanoTime() - start) / (double) frames;
  }

  private static double hmacNanos(SecretKeySpec key, UnsafeBuffer frame, int size)
      throws GeneralSecurityException {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(key);
    byte[] digest = new byte[mac.getMacLength()];
    long frames = BYTES_PER_ROUND / size;
    ByteBuffer bytes = frame.byteBuffer();
    long start = System.nanoTime();
    for (long i = 0; i < 2 * frames; i++) {
      bytes.limit(FrameDescriptor.macOffset(size)).position(0);
      mac.update(bytes);
      mac.doFinal(digest, 0);
    }
    return (System.nanoTime() - start) / (double) frames;
  }
}
