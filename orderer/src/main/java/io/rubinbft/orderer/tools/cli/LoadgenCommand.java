package io.rubinbft.orderer.tools.cli;

import com.google.protobuf.ByteString;
import io.rubinbft.orderer.block.BlockSignatureVerifier;
import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.channel.ConfigBlockReader;
import io.rubinbft.orderer.config.HostPort;
import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.crypto.EcKeys;
import io.rubinbft.orderer.crypto.EcdsaVerifier;
import io.rubinbft.orderer.crypto.Pem;
import io.rubinbft.orderer.crypto.Sha256;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.identity.SigningIdentity;
import io.rubinbft.orderer.tools.loadgen.ConfigBlockFetch;
import io.rubinbft.orderer.tools.loadgen.LoadGenerator;
import io.rubinbft.orderer.tools.loadgen.LoadReport;
import io.rubinbft.orderer.tools.loadgen.LoadSpec;
import io.rubinbft.orderer.tools.loadgen.OrdererChannels;
import io.rubinbft.orderer.tools.loadgen.SubmitMode;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.Callable;
import org.hyperledger.fabric.protos.common.Block;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Load generator: submits signed transactions to every orderer from many concurrent submitters, by
 * default exactly as Fabric's peer Gateway does (a fresh Broadcast stream per envelope and orderer,
 * a quorum decision, Fabric's success rule), follows the chain through Deliver, and reports failed
 * submits, delivered tx/s, latency percentiles, duplicates, losses and whether every block
 * verifies.
 */
@Command(
    name = "loadgen",
    mixinStandardHelpOptions = true,
    description = "Submit transactions to all orderers and check what Deliver returns.")
public final class LoadgenCommand implements Callable<Integer> {

  @Option(names = "--orderer", required = true, description = "host:port, once per orderer")
  @SuppressWarnings("NullAway.Init") // picocli sets it before call()
  List<String> orderers;

  @Option(names = "--channel", required = true)
  @SuppressWarnings("NullAway.Init") // picocli sets it before call()
  String channel;

  @Option(
      names = "--msp-dir",
      required = true,
      description = "client MSP folder (signcerts, keystore)")
  @SuppressWarnings("NullAway.Init") // picocli sets it before call()
  Path mspDirectory;

  @Option(names = "--msp-id", required = true)
  @SuppressWarnings("NullAway.Init") // picocli sets it before call()
  String mspId;

  @Option(names = "--tls-ca", description = "orderers' TLS CA; plaintext when absent")
  @SuppressWarnings("NullAway.Init") // picocli sets it before call()
  Optional<Path> tlsCa;

  @Option(names = "--tls-cert", description = "client TLS certificate, for mutual TLS")
  @SuppressWarnings("NullAway.Init") // picocli sets it before call()
  Optional<Path> tlsCertificate;

  @Option(names = "--tls-key", description = "client TLS key, for mutual TLS")
  @SuppressWarnings("NullAway.Init") // picocli sets it before call()
  Optional<Path> tlsKey;

  @Option(names = "--transactions", defaultValue = "10000")
  long transactions;

  @Option(
      names = "--payload-bytes",
      defaultValue = "2800",
      description = "random payload per envelope (2800 makes ~3.5 KB envelopes)")
  int payloadBytes;

  @Option(names = "--streams", defaultValue = "32", description = "concurrent submitters")
  int streams;

  @Option(
      names = "--mode",
      defaultValue = "gateway",
      converter = ModeConverter.class,
      description =
          "gateway (default: a fresh Broadcast stream per envelope and orderer, as Fabric's"
              + " gateway) or pipelined (one long-lived stream per submitter and orderer)")
  @SuppressWarnings("NullAway.Init") // picocli sets it before call()
  SubmitMode mode;

  @Option(names = "--quorum", description = "SUCCESS answers to wait for (default ceil((n+f+1)/2))")
  @SuppressWarnings("NullAway.Init") // picocli sets it before call()
  Optional<Integer> quorum;

  @Option(
      names = "--rate",
      description = "fixed submission rate in tx/s (default: as fast as acked)")
  @SuppressWarnings("NullAway.Init") // picocli sets it before call()
  Optional<Double> rate;

  @Option(names = "--timeout-seconds", defaultValue = "60")
  long timeoutSeconds;

  @Option(
      names = "--broadcast-timeout-seconds",
      defaultValue = "10",
      description =
          "gateway mode: an orderer's stream still unanswered after this long is cancelled and"
              + " counts as a failure, as Fabric's gateway does at its broadcastTimeout (default 10"
              + " s, Fabric's); a submit whose quorum has not answered by then fails")
  long broadcastTimeoutSeconds;

  @Override
  public Integer call() throws Exception {
    List<HostPort> endpoints = orderers.stream().map(HostPort::parse).toList();
    CryptoProvider provider = CryptoProvider.preferNative();
    // Block data hashes and transaction ids ask the JCA for SHA-256 by name (the ledger's
    // BlockHashing); the launcher runs this command with C1 only, where the JDK's is slow.
    provider.installFirst();
    EnvelopeFactory envelopes =
        new EnvelopeFactory(
            SigningIdentity.fromMspDirectory(mspDirectory, mspId, provider), Clock.systemUTC());
    ByteString certHash =
        tlsCertificate
            .map(
                file ->
                    ByteString.copyFrom(
                        new Sha256(provider).hash(encoded(Pem.certificates(file).getFirst()))))
            .orElse(ByteString.EMPTY);
    try (OrdererChannels connections =
        OrdererChannels.connect(
            endpoints, new OrdererChannels.ClientTls(tlsCa, tlsCertificate, tlsKey))) {
      Duration timeout = Duration.ofSeconds(timeoutSeconds);
      Block genesis =
          ConfigBlockFetch.block(
              connections.channels().getFirst(),
              envelopes,
              channel,
              0,
              certHash,
              timeout.toMillis());
      ChannelConfig config = ConfigBlockReader.read(genesis);
      BlockSignatureVerifier signatures =
          new BlockSignatureVerifier(
              config.consenters(), new EcKeys(provider), new EcdsaVerifier(provider));
      LoadSpec spec =
          new LoadSpec(
              channel,
              transactions,
              payloadBytes,
              streams,
              quorum.orElse(config.consenters().quorums().quorum()),
              rate.map(OptionalDouble::of).orElse(OptionalDouble.empty()),
              timeout,
              mode,
              Duration.ofSeconds(Math.min(broadcastTimeoutSeconds, timeoutSeconds)));
      LoadReport report =
          new LoadGenerator(
                  spec,
                  envelopes,
                  connections.channels(),
                  certHash,
                  block -> signatures.check(block.getHeader(), block.getMetadata()).invalidReason())
              .run();
      System.out.println(report.format());
      return report.passed() ? 0 : 1;
    }
  }

  /** {@link SubmitMode} by its {@link SubmitMode#label()}. */
  static final class ModeConverter implements CommandLine.ITypeConverter<SubmitMode> {
    @Override
    public SubmitMode convert(String value) {
      for (SubmitMode candidate : SubmitMode.values()) {
        if (candidate.label().equals(value)) {
          return candidate;
        }
      }
      throw new CommandLine.TypeConversionException(
          "'" + value + "' is not a submit mode: gateway or pipelined");
    }
  }

  private static byte[] encoded(java.security.cert.X509Certificate certificate) {
    try {
      return certificate.getEncoded();
    } catch (java.security.cert.CertificateEncodingException e) {
      throw new IllegalArgumentException("the client TLS certificate cannot be encoded", e);
    }
  }
}
