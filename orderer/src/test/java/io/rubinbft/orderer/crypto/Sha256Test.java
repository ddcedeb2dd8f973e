package io.rubinbft.orderer.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

class Sha256Test {

  @Test
  void hashesTheRecordedEnvelopeAsTheFixturesSay() {
    byte[] envelope = Fixtures.bytes("envelopes/tx-valid.envelope");

    for (CryptoProvider provider :
        new CryptoProvider[] {CryptoProvider.preferNative(), CryptoProvider.jdk()}) {
      assertThat(HexFormat.of().formatHex(new Sha256(provider).hash(envelope)))
          .isEqualTo("12ee620a600118e7411bf1f3bbcdbbbb738ff01a47cc8e9b990e6fa63a3d06fe");
      int half = envelope.length / 2;
      assertThat(
              new Sha256(provider)
                  .hash(
                      Arrays.copyOfRange(envelope, 0, half),
                      Arrays.copyOfRange(envelope, half, envelope.length)))
          .isEqualTo(new Sha256(provider).hash(envelope));
    }
  }

  /**
   * Property: a ByteString hashes as its bytes do, whatever its shape: flat, a view of a larger
   * array, a rope of pieces, or a direct buffer (seeded, seed printed).
   */
  @Test
  void hashesAByteStringInPlaceAsItsBytes() {
    long seed = new Random().nextLong();
    System.out.println("Sha256Test seed " + seed);
    Random random = new Random(seed);
    for (CryptoProvider provider :
        new CryptoProvider[] {CryptoProvider.preferNative(), CryptoProvider.jdk()}) {
      Sha256 sha256 = new Sha256(provider);
      for (int run = 0; run < 50; run++) {
        byte[] bytes = new byte[random.nextInt(9000)];
        random.nextBytes(bytes);
        int cut = bytes.length == 0 ? 0 : random.nextInt(bytes.length);
        ByteString flat = ByteString.copyFrom(bytes);
        ByteString rope =
            ByteString.copyFrom(bytes, 0, cut)
                .concat(ByteString.copyFrom(bytes, cut, bytes.length - cut));
        ByteString view = ByteString.copyFrom(concat(new byte[7], bytes)).substring(7);
        ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();

        byte[] expected = sha256.hash(bytes);
        for (ByteString shape :
            new ByteString[] {flat, rope, view, UnsafeByteOperations.unsafeWrap(direct)}) {
          assertThat(sha256.hash(shape)).as("seed %d run %d", seed, run).isEqualTo(expected);
        }
      }
    }
  }

  private static byte[] concat(byte[] first, byte[] second) {
    byte[] both = Arrays.copyOf(first, first.length + second.length);
    System.arraycopy(second, 0, both, first.length, second.length);
    return both;
  }
}
