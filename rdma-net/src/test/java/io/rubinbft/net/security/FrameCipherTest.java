package io.rubinbft.net.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rubinbft.net.frame.FrameDescriptor;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Random;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class FrameCipherTest {

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
  void aSealedFrameIsAesGcmOfThePayloadWithTheHeaderAsAadAndTheSequenceAsNonce()
      throws GeneralSecurityException {
    for (int i = 0; i < 50; i++) {
      SecretKey key = randomKey();
      int length = FrameDescriptor.OVERHEAD + random.nextInt(CAPACITY - FrameDescriptor.OVERHEAD);
      long sequence = random.nextLong();
      UnsafeBuffer frame = randomFrame(length, sequence);
      byte[] header = new byte[FrameDescriptor.HEADER_LENGTH];
      frame.getBytes(0, header);
      byte[] plaintext = new byte[length - FrameDescriptor.OVERHEAD];
      frame.getBytes(FrameDescriptor.HEADER_LENGTH, plaintext);

      new FrameCipher(key).seal(frame, length);

      byte[] nonce = ByteBuffer.allocate(12).putLong(4, sequence).array();
      Cipher jdk = Cipher.getInstance("AES/GCM/NoPadding", "SunJCE");
      jdk.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, nonce));
      jdk.updateAAD(header);
      byte[] expected = jdk.doFinal(plaintext);
      byte[] sealed = new byte[length - FrameDescriptor.HEADER_LENGTH];
      frame.getBytes(FrameDescriptor.HEADER_LENGTH, sealed);
      assertThat(sealed).as("seed=%d, frame of %d bytes", SEED, length).isEqualTo(expected);
    }
  }

  @Test
  void anyAlteredByteFailsAndAnIntactFrameOpensToItsPlaintext() throws GeneralSecurityException {
    SecretKey key = randomKey();
    FrameCipher sender = new FrameCipher(key);
    FrameCipher receiver = new FrameCipher(key);
    for (long sequence = 1; sequence <= 200; sequence++) {
      int length = FrameDescriptor.OVERHEAD + random.nextInt(4096);
      UnsafeBuffer frame = randomFrame(length, sequence);
      byte[] plaintext = new byte[length];
      frame.getBytes(0, plaintext);
      sender.seal(frame, length);
      UnsafeBuffer altered = randomFrame(length, sequence);
      altered.putBytes(0, frame, 0, length);
      int position = random.nextInt(length);
      altered.putByte(position, (byte) (altered.getByte(position) ^ (1 + random.nextInt(255))));

      assertThat(receiver.open(altered, length))
          .as("seed=%d, byte %d of %d altered", SEED, position, length)
          .isFalse();
      assertThat(receiver.open(frame, length)).as("seed=%d, intact", SEED).isTrue();
      byte[] opened = new byte[length - FrameDescriptor.TAG_LENGTH];
      frame.getBytes(0, opened);
      assertThat(opened)
          .as("seed=%d", SEED)
          .isEqualTo(Arrays.copyOf(plaintext, length - FrameDescriptor.TAG_LENGTH));
    }
  }

  @Test
  void thePayloadOnTheWireIsNotThePlaintext() throws GeneralSecurityException {
    UnsafeBuffer frame = randomFrame(1000, 3);
    frame.setMemory(FrameDescriptor.HEADER_LENGTH, 1000 - FrameDescriptor.OVERHEAD, (byte) 'A');

    new FrameCipher(randomKey()).seal(frame, 1000);

    int same = 0;
    for (int i = FrameDescriptor.HEADER_LENGTH; i < FrameDescriptor.tagOffset(1000); i++) {
      same += frame.getByte(i) == 'A' ? 1 : 0;
    }
    assertThat(same).as("seed=%d, plaintext bytes left in place", SEED).isLessThan(30);
  }

  @Test
  void aFrameOpensOnlyUnderItsOwnKey() throws GeneralSecurityException {
    UnsafeBuffer frame = randomFrame(300, 5);
    new FrameCipher(randomKey()).seal(frame, 300);

    assertThat(new FrameCipher(randomKey()).open(frame, 300)).as("seed=%d", SEED).isFalse();
  }

  @Test
  void sealingTwoFramesWithOneSequenceNumberFailsLoudly() throws GeneralSecurityException {
    FrameCipher sender = new FrameCipher(randomKey());
    sender.seal(randomFrame(100, 9), 100);
    UnsafeBuffer again = randomFrame(100, 9);

    assertThatThrownBy(() -> sender.seal(again, 100))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("sealing frame 9");
  }
}
