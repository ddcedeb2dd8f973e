package io.rubinbft.orderer.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.HexFormat;
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
}
