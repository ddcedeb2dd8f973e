package io.rubinbft.orderer.tools.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.orderer.crypto.EcKeys;
import java.io.IOException;
import java.io.OutputStream;
import java.security.KeyPair;
import java.security.SecureRandom;
import java.security.Signature;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LowSContentSignerTest {

  @Test
  void everySignatureHasALowSAndVerifies() throws Exception {
    long seed = new Random().nextLong();
    System.out.println("LowSContentSignerTest seed " + seed);
    Random random = new Random(seed);
    KeyPair keys = EcKeys.generateCryptogen(new SecureRandom());
    for (int i = 0; i < 64; i++) {
      byte[] content = new byte[random.nextInt(1, 512)];
      random.nextBytes(content);
      LowSContentSigner signer = new LowSContentSigner(keys.getPrivate());
      write(signer.getOutputStream(), content);
      byte[] signature = signer.getSignature();

      assertThat(Signatures.isLowS(signature)).as("seed %d, round %d", seed, i).isTrue();
      Signature verifier = Signature.getInstance("SHA256withECDSA");
      verifier.initVerify(keys.getPublic());
      verifier.update(content);
      assertThat(verifier.verify(signature)).as("seed %d, round %d", seed, i).isTrue();
    }
  }

  @Test
  void aHighSIsReplacedByItsComplementAndALowSIsKept() throws Exception {
    KeyPair keys = EcKeys.generateCryptogen(new SecureRandom());
    byte[] content = {1, 2, 3};
    int highSeen = 0;
    for (int i = 0; i < 64; i++) {
      Signature plain = Signature.getInstance("SHA256withECDSA", EcKeys.CRYPTOGEN_PROVIDER);
      plain.initSign(keys.getPrivate());
      plain.update(content);
      byte[] signature = plain.sign();
      byte[] normalized = LowSContentSigner.lowS(signature, Signatures.P256_ORDER);
      if (Signatures.isLowS(signature)) {
        assertThat(normalized).isSameAs(signature);
      } else {
        highSeen++;
        assertThat(Signatures.isLowS(normalized)).isTrue();
        Signature verifier = Signature.getInstance("SHA256withECDSA");
        verifier.initVerify(keys.getPublic());
        verifier.update(content);
        assertThat(verifier.verify(normalized)).isTrue();
      }
    }
    // Half of all ECDSA signatures have a high S; 64 tries without one has odds of 2^-64.
    assertThat(highSeen).isPositive();
  }

  private static void write(OutputStream out, byte[] content) throws IOException {
    out.write(content);
  }
}
