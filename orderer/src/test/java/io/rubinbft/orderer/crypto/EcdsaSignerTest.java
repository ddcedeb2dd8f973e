package io.rubinbft.orderer.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.interfaces.ECPublicKey;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Signing on one provider, verifying on the other; every signature must come out low-S. */
class EcdsaSignerTest {

  private static final long SEED = 0x5eed_0001L;

  @Test
  void signaturesAreLowSAndVerifyAcrossProviders() {
    CryptoProvider accp = CryptoProvider.preferNative();
    CryptoProvider jdk = CryptoProvider.jdk();
    Random random = new Random(SEED);
    System.out.println("seed " + SEED);
    for (int round = 0; round < 50; round++) {
      CryptoProvider signing = round % 2 == 0 ? accp : jdk;
      CryptoProvider verifying = round % 2 == 0 ? jdk : accp;
      KeyPair keys = new EcKeys(signing).generateP256();
      BigInteger order = ((ECPublicKey) keys.getPublic()).getParams().getOrder();
      byte[] head = new byte[random.nextInt(64)];
      byte[] tail = new byte[random.nextInt(4096)];
      random.nextBytes(head);
      random.nextBytes(tail);

      byte[] signature = new EcdsaSigner(signing, keys.getPrivate()).sign(head, tail);

      assertThat(EcdsaSignature.fromDer(signature, order).orElseThrow().isLowS(order))
          .as("round %d", round)
          .isTrue();
      assertThat(new EcdsaVerifier(verifying).verify(keys.getPublic(), signature, head, tail))
          .as("round %d", round)
          .isEqualTo(SignatureVerdict.VALID);
      assertThat(new EcdsaVerifier(verifying).verify(keys.getPublic(), signature, tail, head))
          .as("round %d, parts swapped", round)
          .isEqualTo(SignatureVerdict.MISMATCH);
    }
  }

  @Test
  void signsWithCryptogensPrivateKeyForItsCertificate() throws GeneralSecurityException {
    CryptoProvider provider = CryptoProvider.preferNative();
    String org = "peerOrganizations/org1.example.com";
    String user = "User1@org1.example.com";
    PrivateKey key = new EcKeys(provider).privateKeyFromPem(Fixtures.signKey(org, "users", user));
    PublicKey certKey =
        EcdsaVerifierTest.certificate(Fixtures.signCert(org, "users", user)).getPublicKey();
    byte[] message = "block 7".getBytes(StandardCharsets.UTF_8);

    byte[] signature = new EcdsaSigner(provider, key).sign(message);

    assertThat(new EcdsaVerifier(provider).verify(certKey, signature, message))
        .isEqualTo(SignatureVerdict.VALID);
  }

  @Test
  void providerReportsWhatItUses() {
    CryptoProvider provider = CryptoProvider.preferNative();

    if (provider.isNative()) {
      assertThat(provider.name()).isEqualTo("AmazonCorrettoCryptoProvider");
      assertThat(provider.fallbackReason()).isEmpty();
    } else {
      assertThat(provider.fallbackReason()).isPresent();
    }
    assertThat(CryptoProvider.jdk().isNative()).isFalse();
    assertThat(CryptoProvider.jdk().name()).isEqualTo("SunEC");
  }
}
