package io.rubinbft.orderer.msp;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.crypto.EcdsaSigner;
import io.rubinbft.orderer.crypto.EcdsaVerifier;
import io.rubinbft.orderer.crypto.Fixtures;
import io.rubinbft.orderer.crypto.SignatureVerdict;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Broadcast handlers share one ChannelMsps and one EcdsaVerifier: many threads, a cache smaller
 * than the signer population (constant eviction), every answer still right.
 */
class ConcurrentDeserializationTest {

  @Test
  void threadsSharingASmallCacheAndOneVerifierGetConsistentAnswers()
      throws InterruptedException, ExecutionException {
    CryptoProvider provider = CryptoProvider.preferNative();
    ChannelMsps msps = fromGenesis(provider, 3);
    EcdsaVerifier verifier = new EcdsaVerifier(provider);
    TestCa org1 = TestCa.org1();
    List<TestCa.Issued> issued = new ArrayList<>();
    List<ByteString> serialized = new ArrayList<>();
    List<byte[]> signatures = new ArrayList<>();
    byte[] message = "one envelope payload".getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < 8; i++) {
      TestCa.Issued identity = org1.issue("client" + i, List.of("client"));
      issued.add(identity);
      serialized.add(TestCa.serialized("Org1MSP", identity.certificate()));
      signatures.add(new EcdsaSigner(provider, identity.keys().getPrivate()).sign(message));
    }
    try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
      List<Future<Integer>> done = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int offset = t;
        done.add(
            pool.submit(
                () -> {
                  int checked = 0;
                  for (int round = 0; round < 100; round++) {
                    int i = (round + offset) % issued.size();
                    Identity identity = ChannelMspsTest.valid(msps.deserialize(serialized.get(i)));
                    assertThat(identity.certificate()).isEqualTo(issued.get(i).certificate());
                    int other = (i + 1) % issued.size();
                    assertThat(verifier.verify(identity.publicKey(), signatures.get(i), message))
                        .isEqualTo(SignatureVerdict.VALID);
                    assertThat(
                            verifier.verify(identity.publicKey(), signatures.get(other), message))
                        .isEqualTo(SignatureVerdict.MISMATCH);
                    checked++;
                  }
                  return checked;
                }));
      }
      for (Future<Integer> thread : done) {
        assertThat(thread.get()).isEqualTo(100);
      }
    }
  }

  private static ChannelMsps fromGenesis(CryptoProvider provider, int capacity) {
    try {
      return ChannelMsps.fromConfig(Fixtures.genesisConfig(), provider, capacity);
    } catch (MspConfigException e) {
      throw new IllegalStateException(e);
    }
  }
}
