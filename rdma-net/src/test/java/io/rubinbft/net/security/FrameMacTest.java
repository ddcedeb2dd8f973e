package io.rubinbft.net.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rubinbft.net.frame.FrameDescriptor;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.Random;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class FrameMacTest {

  private static final long SEED = new Random().nextLong();
  private static final int CAPACITY = 70_000;

  private final Random random = new Random(SEED);

  private SecretKey randomKey() {
    byte[] key = new byte[32];
    random.nextBytes(key);
    return new SecretKeySpec(key, "AES");
  }

  /** A frame of random bytes at a random offset in a larger buffer, as in a ring. */
  private UnsafeBuffer randomFrame(int length, long sequence) {
    UnsafeBuffer ring = new UnsafeBuffer(ByteBuffer.allocateDirect(CAPACITY + 64));
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    UnsafeBuffer frame = new UnsafeBuffer(ring.byteBuffer(), random.nextInt(64), length);
    frame.putBytes(0, bytes);
    frame.putLong(FrameDescriptor.SEQUENCE_OFFSET, sequence);
    return frame;
  }

  @Test
  void theTagIsAesGcmOverTheFrameWithTheSequenceAsNonce() throws GeneralSecurityException {
    for (int i = 0; i < 50; i++) {
      SecretKey key = randomKey();
      int length = FrameDescriptor.OVERHEAD + random.nextInt(CAPACITY - FrameDescriptor.OVERHEAD);
      long sequence = random.nextLong();
      UnsafeBuffer frame = randomFrame(length, sequence);

      new FrameMac(key).seal(frame, length);

      byte[] nonce = ByteBuffer.allocate(12).putLong(4, sequence).array();
      Cipher jdk = Cipher.getInstance("AES/GCM/NoPadding", "SunJCE");
      jdk.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, nonce));
      byte[] covered = new byte[FrameDescriptor.macOffset(length)];
      frame.getBytes(0, covered);
      jdk.updateAAD(covered);
      byte[] expected = jdk.doFinal();
      byte[] sealed = new byte[FrameDescriptor.MAC_LENGTH];
      frame.getBytes(FrameDescriptor.macOffset(length), sealed);
      assertThat(sealed).as("seed=%d, frame of %d bytes", SEED, length).isEqualTo(expected);
    }
  }

  @Test
  void anyAlteredByteFailsVerification() throws GeneralSecurityException {
    SecretKey key = randomKey();
    FrameMac sender = new FrameMac(key);
    FrameMac receiver = new FrameMac(key);
    for (long sequence = 1; sequence <= 200; sequence++) {
      int length = FrameDescriptor.OVERHEAD + random.nextInt(4096);
      UnsafeBuffer frame = randomFrame(length, sequence);
      sender.seal(frame, length);
      assertThat(receiver.verify(frame, length)).as("seed=%d, intact", SEED).isTrue();

      int position = random.nextInt(length);
      frame.putByte(position, (byte) (frame.getByte(position) ^ (1 + random.nextInt(255))));
      assertThat(receiver.verify(frame, length))
          .as("seed=%d, byte %d of %d altered", SEED, position, length)
          .isFalse();
    }
  }

  @Test
  void aReplayOfTheLastFrameIsJudgedAsTheFirstCopyWas() throws GeneralSecurityException {
    // A verify computes the tag in encrypt mode, except for a frame with the sequence number it
    // computed last, which is checked in decrypt mode: every frame here goes both ways.
    SecretKey key = randomKey();
    FrameMac sender = new FrameMac(key);
    FrameMac receiver = new FrameMac(key);
    for (long sequence = 1; sequence <= 200; sequence++) {
      int length = FrameDescriptor.OVERHEAD + random.nextInt(4096);
      UnsafeBuffer frame = randomFrame(length, sequence);
      sender.seal(frame, length);
      boolean altered = random.nextBoolean();
      if (altered) {
        int position = random.nextInt(length - Long.BYTES);
        position += position >= FrameDescriptor.SEQUENCE_OFFSET ? Long.BYTES : 0;
        frame.putByte(position, (byte) (frame.getByte(position) ^ (1 + random.nextInt(255))));
      }

      boolean first = receiver.verify(frame, length);
      boolean replayed = receiver.verify(frame, length);

      assertThat(first)
          .as("seed=%d, frame %d, altered %b", SEED, sequence, altered)
          .isNotEqualTo(altered);
      assertThat(replayed).as("seed=%d, frame %d replayed", SEED, sequence).isEqualTo(first);
    }
  }

  @Test
  void aFrameVerifiesOnlyUnderItsOwnKey() throws GeneralSecurityException {
    UnsafeBuffer frame = randomFrame(300, 5);
    new FrameMac(randomKey()).seal(frame, 300);

    assertThat(new FrameMac(randomKey()).verify(frame, 300)).as("seed=%d", SEED).isFalse();
  }

  @Test
  void sealingTwoFramesWithOneSequenceNumberFailsLoudly() throws GeneralSecurityException {
    FrameMac sender = new FrameMac(randomKey());
    sender.seal(randomFrame(100, 9), 100);
    UnsafeBuffer again = randomFrame(100, 9);

    assertThatThrownBy(() -> sender.seal(again, 100))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("sealing frame 9");
  }
}
