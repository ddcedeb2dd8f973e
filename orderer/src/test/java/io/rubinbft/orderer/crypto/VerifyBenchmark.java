package io.rubinbft.orderer.crypto;

import java.security.KeyPair;
import java.util.Random;

/**
 * Prints ECDSA P-256 sign/verify cost over a 3.5 KB message for ACCP and the JDK provider (a main,
 * not a test: no timed assertions). From the repo root: {@code mvn -q -pl orderer -am test-compile
 * dependency:build-classpath -Dmdep.outputFile=target/cp.txt && cd orderer && java -cp
 * target/classes:target/test-classes:$(cat target/cp.txt) --enable-native-access=ALL-UNNAMED
 * io.rubinbft.orderer.crypto.VerifyBenchmark}
 */
public final class VerifyBenchmark {

  private static final int MESSAGE_BYTES = 3_500;
  private static final int WARMUP = 5_000;
  private static final int MEASURED = 20_000;

  private VerifyBenchmark() {}

  public static void main(String[] args) {
    byte[] message = new byte[MESSAGE_BYTES];
    new Random(1).nextBytes(message);
    for (CryptoProvider provider :
        new CryptoProvider[] {CryptoProvider.preferNative(), CryptoProvider.jdk()}) {
      KeyPair keys = new EcKeys(provider).generateP256();
      EcdsaSigner signer = new EcdsaSigner(provider, keys.getPrivate());
      EcdsaVerifier verifier = new EcdsaVerifier(provider);
      byte[] signature = signer.sign(message);
      run(() -> signer.sign(message), WARMUP);
      long signNanos = run(() -> signer.sign(message), MEASURED);
      run(() -> verifier.verify(keys.getPublic(), signature, message), WARMUP);
      long verifyNanos = run(() -> verifier.verify(keys.getPublic(), signature, message), MEASURED);
      System.out.printf(
          "%-30s sign %6.1f us  verify %6.1f us  (P-256, %d B, %d ops)%n",
          provider,
          signNanos / 1e3 / MEASURED,
          verifyNanos / 1e3 / MEASURED,
          MESSAGE_BYTES,
          MEASURED);
    }
  }

  private static long run(Runnable operation, int times) {
    long start = System.nanoTime();
    for (int i = 0; i < times; i++) {
      operation.run();
    }
    return System.nanoTime() - start;
  }
}
