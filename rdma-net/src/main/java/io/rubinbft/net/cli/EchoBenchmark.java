package io.rubinbft.net.cli;

import io.rubinbft.net.Identity;
import io.rubinbft.net.security.GcmProvider;
import io.rubinbft.net.shm.ShmOptions;
import io.rubinbft.net.shm.ShmVerbsDevice;
import io.rubinbft.net.tcp.TcpTransport;
import io.rubinbft.net.transport.Transport;
import io.rubinbft.net.verbs.provider.VerbsTransport;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Echo benchmark in the shape of the RUBIN paper's Figures 3 and 4: round-trip latency of
 * sequential messages and throughput of a pipelined stream, 1 KB to 100 KB, for the selector over
 * the shm and tcp transports against a plain java.nio baseline, in one JVM (client and server
 * threads). Prints a Markdown table and writes every measurement to a CSV file, which
 * rdma-net/plot-echo.py turns into a PNG.
 *
 * <p>Usage: {@code EchoBenchmark <server.p12> <client.p12> <store password> <round trips> <csv
 * file> <shm directory>}; the PKCS#12 stores each hold one key entry and the shm directory is an
 * empty directory, ideally on tmpfs (rdma-net/echo-benchmark.sh makes all of them).
 */
public final class EchoBenchmark {

  private static final int WARM_UP_STREAMED = 2000;
  private static final int WARM_UP_PASSES = 3;
  private static final int[] WARM_UP_SIZES = {1024, 16384, 102400};
  private static final int[] SIZES = {1024, 2048, 4096, 8192, 16384, 32768, 65536, 102400};

  /** Bytes streamed per size and transport; {@code -Decho.streamedBytes} shortens a run. */
  private static final long STREAMED_BYTES = Long.getLong("echo.streamedBytes", 200_000_000L);

  private static final int WINDOW = 16;

  /** Completion queue entries of the shm transport: both echo channels' slots, with room. */
  private static final int SHM_COMPLETIONS = 4096;

  /** Inline sends up to this size copy at post time, as an RDMA NIC's inline sends do. */
  private static final int SHM_MAX_INLINE = 256;

  private EchoBenchmark() {}

  public static void main(String[] args)
      throws IOException, GeneralSecurityException, InterruptedException {
    if (args.length != 6) {
      System.err.println(
          "usage: EchoBenchmark <server.p12> <client.p12> <store password> <round trips>"
              + " <csv file> <shm directory>");
      System.exit(2);
    }
    Identity server = load(Path.of(args[0]), args[2].toCharArray());
    Identity client = load(Path.of(args[1]), args[2].toCharArray());
    int roundTrips = Integer.parseInt(args[3]);
    Path shmRoot = Path.of(args[5]);
    ChannelEcho shm = new ChannelEcho(() -> shm(shmRoot), server, client, false);
    ChannelEcho tcp = new ChannelEcho(EchoBenchmark::tcp, server, client, false);
    System.out.println("frame cipher: AES-256-GCM from " + GcmProvider.name());
    // Warm-up, discarded, the same for every transport: otherwise the first size measured carries
    // the JIT compilation of each path. One pass at 1 KB and 16 KB was not enough: C2 was still
    // compiling the shm data path (VerbsLink.receive, ShmQueuePair.postSend, ...) during the first
    // measured size (bench/journal/2026-11-21-02-rdma-net-echo.md), and the fragmentation path
    // during
    // the first fragmented size (64 KB). So: several passes, including a fragmented size.
    for (int pass = 0; pass < WARM_UP_PASSES; pass++) {
      for (int size : sizes().length < SIZES.length ? sizes() : WARM_UP_SIZES) {
        measure(shm, size, roundTrips, WARM_UP_STREAMED);
        measure(tcp, size, roundTrips, WARM_UP_STREAMED);
        NioEcho.run(size, roundTrips, WARM_UP_STREAMED, WINDOW);
      }
    }
    List<EchoRow> rows = new ArrayList<>();
    for (int size : sizes()) {
      int streamed = Math.max(2000, (int) (STREAMED_BYTES / size));
      EchoRow row =
          new EchoRow(
              size,
              measure(shm, size, roundTrips, streamed),
              measure(tcp, size, roundTrips, streamed),
              NioEcho.run(size, roundTrips, streamed, WINDOW));
      System.err.println("measured " + size + " bytes");
      rows.add(row);
    }
    EchoReport.printMarkdown(rows);
    EchoReport.writeCsv(rows, Path.of(args[4]));
    EchoResult spinning =
        measure(new ChannelEcho(EchoBenchmark::tcp, server, client, true), 1024, roundTrips, 2000);
    System.out.printf(
        Locale.ROOT,
        "%ntcp provider at 1 KB with the echo server busy-polling instead of waiting in select:"
            + " RTT p50 %.1f µs (plain NIO above: %.1f µs)%n",
        spinning.percentileMicros(0.5),
        rows.getFirst().nio().percentileMicros(0.5));
  }

  private static EchoResult measure(ChannelEcho echo, int size, int roundTrips, int streamed)
      throws IOException, InterruptedException {
    return echo.run(size, roundTrips, streamed, WINDOW);
  }

  private static Transport tcp() {
    try {
      return TcpTransport.open();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Transport shm(Path root) {
    try {
      return VerbsTransport.open(
          ShmVerbsDevice.open(ShmOptions.defaults(root)), SHM_COMPLETIONS, SHM_MAX_INLINE);
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

  /** The message sizes measured: all, or those {@code -Decho.sizes=1024,16384} names. */
  private static int[] sizes() {
    String chosen = System.getProperty("echo.sizes");
    return chosen == null
        ? SIZES
        : Arrays.stream(chosen.split(",")).mapToInt(Integer::parseInt).toArray();
  }
}
