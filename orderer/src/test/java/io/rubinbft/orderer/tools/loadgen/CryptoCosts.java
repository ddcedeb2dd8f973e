package io.rubinbft.orderer.tools.loadgen;

import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.crypto.EcKeys;
import io.rubinbft.orderer.crypto.EcdsaVerifier;
import io.rubinbft.orderer.crypto.Fixtures;
import io.rubinbft.orderer.crypto.SignatureVerdict;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.identity.SigningIdentity;
import io.rubinbft.orderer.msp.ChannelMsps;
import io.rubinbft.orderer.msp.MspConfigException;
import io.rubinbft.orderer.policy.PolicyConfigException;
import io.rubinbft.orderer.validation.BroadcastValidator;
import io.rubinbft.orderer.validation.ChannelRules;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.hyperledger.fabric.protos.common.Envelope;

/**
 * CPU time of the per-transaction signature work, on the calling thread (ThreadMXBean), with the
 * orderer's own crypto code and provider: ECDSA P-256 verify of a client envelope, a node's whole
 * Broadcast validation of one, signing a block-sized message, and a client building and signing an
 * envelope.
 */
final class CryptoCosts {

  private static final int WARMUP = 5_000;
  private static final int MEASURED = 20_000;

  /** About what a block signature covers: metadata value, identifier header, header DER. */
  private static final int BLOCK_SIGNED_BYTES = 300;

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final CryptoProvider provider;
  private final SigningIdentity client;
  private final List<Envelope> envelopes;

  /**
   * @param envelopes distinct envelopes {@code client} signed, cycled through
   */
  CryptoCosts(CryptoProvider provider, SigningIdentity client, List<Envelope> envelopes) {
    this.provider = provider;
    this.client = client;
    this.envelopes = envelopes;
  }

  /** Microseconds of CPU for one bare ECDSA verify of an envelope's payload. */
  double verifyMicros() throws GeneralSecurityException {
    EcdsaVerifier verifier = new EcdsaVerifier(provider);
    PublicKey key = new EcKeys(provider).importPublic(client.certificate().getPublicKey());
    return perOperation(
        i -> {
          Envelope envelope = envelopes.get(i % envelopes.size());
          SignatureVerdict verdict =
              verifier.verify(key, envelope.getSignature(), envelope.getPayload());
          if (verdict != SignatureVerdict.VALID) {
            throw new IllegalStateException("benchmark envelope " + i + ": " + verdict);
          }
        });
  }

  /**
   * Microseconds of CPU for a node's whole Broadcast check of one envelope: decode, channel, size,
   * creator (cached), one ECDSA verify, /Channel/Writers.
   */
  double validateMicros(String channel) throws MspConfigException, PolicyConfigException {
    ChannelRules rules =
        ChannelRules.fromConfig(
            Fixtures.genesisConfig(), provider, 10_485_760, ChannelMsps.DEFAULT_CACHE_CAPACITY);
    BroadcastValidator validator =
        new BroadcastValidator(
            id -> id.equals(channel) ? Optional.of(rules) : Optional.empty(), Clock.systemUTC());
    return perOperation(
        i -> {
          var result = validator.validate(envelopes.get(i % envelopes.size()));
          if (!result.verdict().isSuccess()) {
            throw new IllegalStateException("benchmark envelope " + i + ": " + result.verdict());
          }
        });
  }

  /** Microseconds of CPU for one ECDSA P-256 signature over a block's signed bytes. */
  double blockSignMicros() {
    byte[] signed = new byte[BLOCK_SIGNED_BYTES];
    new Random(1).nextBytes(signed);
    return perOperation(i -> client.signer().sign(signed));
  }

  /** Microseconds of CPU for one bare ECDSA P-256 signature over an envelope's payload. */
  double signPayloadMicros() {
    return perOperation(
        i -> client.signer().sign(envelopes.get(i % envelopes.size()).getPayload().toByteArray()));
  }

  /**
   * Microseconds of CPU for a client to build and sign one transaction envelope (transaction id
   * hash, headers, ECDSA sign over the payload), as the load generator does for every submission.
   */
  double buildAndSignMicros(EnvelopeFactory factory, String channel, int payloadBytes) {
    byte[] payload = new byte[payloadBytes];
    Random random = new Random(1);
    return perOperation(
        i -> {
          random.nextBytes(payload);
          factory.transaction(channel, payload);
        });
  }

  private interface Operation {
    void run(int index);
  }

  private static double perOperation(Operation operation) {
    for (int i = 0; i < WARMUP; i++) {
      operation.run(i);
    }
    long start = THREADS.getCurrentThreadCpuTime();
    for (int i = 0; i < MEASURED; i++) {
      operation.run(i);
    }
    return (THREADS.getCurrentThreadCpuTime() - start) / 1e3 / MEASURED;
  }
}
