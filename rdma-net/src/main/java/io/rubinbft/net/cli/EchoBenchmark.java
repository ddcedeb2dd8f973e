package io.rubinbft.net.cli;

import io.rubinbft.net.Identity;
import io.rubinbft.net.tcp.TcpTransport;
import io.rubinbft.net.transport.Transport;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;

/**
 * Echo benchmark in the shape of the RUBIN paper's Figures 3 and 4: round-trip latency of
 * sequential messages and throughput of a pipelined stream, 1 KB to 100 KB, for the selector over
 * the tcp transport against a plain java.nio baseline, on loopback in one JVM (client and server
 * threads). Prints a Markdown table.
 *
 * <p>Usage: {@code EchoBenchmark <server.p12> <client.p12> <store password> [round trips]}; the
 * PKCS#12 stores each hold one key entry (rdma-net/echo-benchmark.sh makes them with keytool).
 */
public final class EchoBenchmark {

  private static final int[] SIZES = {1024, 2048, 4096, 8192, 16384, 32768, 65536, 102400};
  private static final int WINDOW = 16;

  private EchoBenchmark() {}

  public static void main(String[] args)
      throws IOException, GeneralSecurityException, InterruptedException {
    if (args.length < 3) {
      System.err.println(
          "usage: EchoBenchmark <server.p12> <client.p12> <store password> [round trips]");
      System.exit(2);
    }
    Identity server = load(Path.of(args[0]), args[2].toCharArray());
    Identity client = load(Path.of(args[1]), args[2].toCharArray());
    int roundTrips = args.length > 3 ? Integer.parseInt(args[3]) : 5000;
    ChannelEcho channels = new ChannelEcho(EchoBenchmark::tcp, server, client);
    System.out.println(
        "| size | RTT p50 µs tcp provider | RTT p50 µs plain NIO | p50 ratio"
            + " | RTT p99 µs tcp provider | RTT p99 µs plain NIO"
            + " | MB/s tcp provider | MB/s plain NIO | throughput ratio |");
    System.out.println("|---|---|---|---|---|---|---|---|---|");
    for (int size : SIZES) {
      int streamed = Math.max(2000, (int) (200_000_000L / size));
      EchoResult nio = NioEcho.run(size, roundTrips, streamed, WINDOW);
      EchoResult ours = channels.run(size, roundTrips, streamed, WINDOW);
      System.out.printf(
          "| %d KB | %.1f | %.1f | %.2f | %.1f | %.1f | %.0f | %.0f | %.2f |%n",
          size / 1024,
          ours.percentileMicros(0.5),
          nio.percentileMicros(0.5),
          ours.percentileMicros(0.5) / nio.percentileMicros(0.5),
          ours.percentileMicros(0.99),
          nio.percentileMicros(0.99),
          ours.megabytesPerSecond(),
          nio.megabytesPerSecond(),
          ours.megabytesPerSecond() / nio.megabytesPerSecond());
    }
  }

  private static Transport tcp() {
    try {
      return TcpTransport.open();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Identity load(Path store, char[] password)
      throws IOException, GeneralSecurityException {
    KeyStore keyStore = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(store)) {
      keyStore.load(in, password);
    }
    String alias = keyStore.aliases().nextElement();
    return new Identity(
        (X509Certificate) keyStore.getCertificate(alias),
        (PrivateKey) keyStore.getKey(alias, password));
  }
}
