package io.rubinbft.orderer.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnsafeByteOperations;
import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPublicKey;
import java.util.Arrays;
import java.util.stream.Stream;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Payload;
import org.hyperledger.fabric.protos.common.SignatureHeader;
import org.hyperledger.fabric.protos.msp.SerializedIdentity;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Fabric's signatures (recorded envelopes) checked on both providers. */
class EcdsaVerifierTest {

  static Stream<CryptoProvider> providers() {
    return Stream.of(CryptoProvider.preferNative(), CryptoProvider.jdk());
  }

  /** An envelope Fabric ordered, and the same with one byte of its signature flipped. */
  static Stream<Arguments> recordedEnvelopes() {
    return providers()
        .flatMap(
            provider ->
                Stream.of(
                    Arguments.of(provider, "tx-valid", SignatureVerdict.VALID),
                    Arguments.of(provider, "rejected-bad-signature", SignatureVerdict.MISMATCH)));
  }

  @ParameterizedTest
  @MethodSource("recordedEnvelopes")
  void judgesTheRecordedSignaturesAsFabricDid(
      CryptoProvider provider, String name, SignatureVerdict expected)
      throws GeneralSecurityException, InvalidProtocolBufferException {
    Envelope envelope = Fixtures.envelope(name);

    SignatureVerdict verdict =
        new EcdsaVerifier(provider)
            .verify(
                creatorKey(provider, envelope),
                envelope.getSignature().toByteArray(),
                envelope.getPayload().toByteArray());

    assertThat(verdict).isEqualTo(expected);
  }

  /**
   * The payload handed over in place, whatever the ByteString's shape (rope of two pieces, direct
   * buffer), is judged as the array is.
   */
  @ParameterizedTest
  @MethodSource("recordedEnvelopes")
  void judgesAPayloadHandedOverInPlaceAsTheArray(
      CryptoProvider provider, String name, SignatureVerdict expected)
      throws GeneralSecurityException, InvalidProtocolBufferException {
    Envelope envelope = Fixtures.envelope(name);
    ByteString payload = envelope.getPayload();
    int half = payload.size() / 2;
    ByteString rope =
        ByteString.copyFrom(payload.substring(0, half).toByteArray())
            .concat(ByteString.copyFrom(payload.substring(half).toByteArray()));
    ByteString direct =
        UnsafeByteOperations.unsafeWrap(
            ByteBuffer.allocateDirect(payload.size()).put(payload.asReadOnlyByteBuffer()).flip());
    EcdsaVerifier verifier = new EcdsaVerifier(provider);
    PublicKey key = creatorKey(provider, envelope);

    for (ByteString shape : new ByteString[] {payload, rope, direct}) {
      assertThat(verifier.verify(key, envelope.getSignature(), shape)).isEqualTo(expected);
    }
  }

  @ParameterizedTest
  @MethodSource("providers")
  void rejectsTheHighSTwinOfAValidSignature(CryptoProvider provider)
      throws GeneralSecurityException, InvalidProtocolBufferException {
    Envelope envelope = Fixtures.envelope("tx-valid");
    PublicKey key = creatorKey(provider, envelope);
    BigInteger order = ((ECPublicKey) key).getParams().getOrder();
    EcdsaSignature low =
        EcdsaSignature.fromDer(envelope.getSignature().toByteArray(), order).orElseThrow();
    EcdsaSignature high = new EcdsaSignature(low.r(), order.subtract(low.s()));

    SignatureVerdict verdict =
        new EcdsaVerifier(provider)
            .verify(key, high.toDer(order), envelope.getPayload().toByteArray());

    assertThat(verdict).isEqualTo(SignatureVerdict.HIGH_S);
  }

  @ParameterizedTest
  @MethodSource("providers")
  void rejectsEncodingsThatAreNotCanonicalDer(CryptoProvider provider)
      throws GeneralSecurityException, InvalidProtocolBufferException {
    Envelope envelope = Fixtures.envelope("tx-valid");
    PublicKey key = creatorKey(provider, envelope);
    byte[] der = envelope.getSignature().toByteArray();
    byte[] payload = envelope.getPayload().toByteArray();
    EcdsaVerifier verifier = new EcdsaVerifier(provider);

    assertThat(verifier.verify(key, Arrays.copyOf(der, der.length + 1), payload))
        .isEqualTo(SignatureVerdict.MALFORMED);
    assertThat(verifier.verify(key, new byte[0], payload)).isEqualTo(SignatureVerdict.MALFORMED);
    assertThat(verifier.verify(key, Arrays.copyOf(der, der.length - 1), payload))
        .isEqualTo(SignatureVerdict.MALFORMED);
  }

  static PublicKey creatorKey(CryptoProvider provider, Envelope envelope)
      throws GeneralSecurityException, InvalidProtocolBufferException {
    Payload payload = Payload.parseFrom(envelope.getPayload());
    SignatureHeader header = SignatureHeader.parseFrom(payload.getHeader().getSignatureHeader());
    SerializedIdentity creator = SerializedIdentity.parseFrom(header.getCreator());
    return new EcKeys(provider)
        .importPublic(certificate(creator.getIdBytes().toStringUtf8()).getPublicKey());
  }

  static X509Certificate certificate(String pem) throws GeneralSecurityException {
    return (X509Certificate)
        CertificateFactory.getInstance("X.509")
            .generateCertificate(new ByteArrayInputStream(pem.getBytes(StandardCharsets.UTF_8)));
  }
}
