package io.rubinbft.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The ledger's SHA-256 is the native one where it can be, and always equals the JDK's. */
class Sha256ProviderTest {

  @Test
  void isTheNativeProviderOnLinuxX8664() {
    assumeTrue(
        System.getProperty("os.name").equals("Linux")
            && System.getProperty("os.arch").equals("amd64"),
        "ACCP ships a native library for Linux x86-64 only");
    assertThat(Sha256Provider.newDigest().getProvider().getName())
        .isEqualTo("AmazonCorrettoCryptoProvider");
  }

  @Test
  void digestsEqualTheJdksOverRandomInputs() throws GeneralSecurityException {
    long seed = System.nanoTime();
    System.out.println("Sha256ProviderTest seed " + seed);
    Random random = new Random(seed);
    MessageDigest jdk = MessageDigest.getInstance("SHA-256", "SUN");
    for (int i = 0; i < 200; i++) {
      byte[] input = new byte[random.nextInt(10_000)];
      random.nextBytes(input);
      assertThat(Sha256Provider.newDigest().digest(input))
          .as("input %d of %d bytes (seed %d)", i, input.length, seed)
          .isEqualTo(jdk.digest(input));
    }
  }
}
