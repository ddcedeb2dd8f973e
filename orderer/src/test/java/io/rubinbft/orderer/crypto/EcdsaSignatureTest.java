package io.rubinbft.orderer.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.HexFormat;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A client's signature bytes are untrusted: whatever DER they hold, decoding says "not a signature"
 * and throws nothing (found by EnvelopeFuzzTest: a Deliver request whose signature was a SEQUENCE
 * holding a tagged object ended the stream with INTERNAL instead of Fabric's answer).
 */
class EcdsaSignatureTest {

  /** The order of P-256. */
  private static final BigInteger ORDER =
      new BigInteger("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551", 16);

  @ParameterizedTest
  @ValueSource(
      strings = {
        "3007a00205000201" + "01", // SEQUENCE { [0] { NULL }, INTEGER 1 }
        "30060101ff020101", // SEQUENCE { BOOLEAN, INTEGER 1 }
        "020101", // INTEGER 1, not a SEQUENCE
        "0500", // NULL
        "3003020101", // SEQUENCE { INTEGER 1 }: one element
        "308402", // a length running past the end
        ""
      })
  void malformedDerIsNoSignature(String hex) {
    assertThat(EcdsaSignature.fromDer(HexFormat.of().parseHex(hex), ORDER)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"3006020101020102"})
  void aCanonicalSequenceOfTwoIntegersIsOne(String hex) {
    assertThat(EcdsaSignature.fromDer(HexFormat.of().parseHex(hex), ORDER))
        .contains(new EcdsaSignature(BigInteger.ONE, BigInteger.TWO));
  }
}
