package io.rubinbft.net.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** The echo benchmark's output: a Markdown table for BENCHMARKS.md and a CSV for the plot. */
final class EchoReport {

  static final String CSV_HEADER =
      "transport,message_bytes,rtt_p50_us,rtt_p99_us,megabytes_per_s,messages_per_s";

  private EchoReport() {}

  static void printMarkdown(List<EchoRow> rows) {
    System.out.println(
        "| size | RTT p50 µs shm | tcp | NIO | shm/NIO | tcp/NIO"
            + " | RTT p99 µs shm | tcp | NIO"
            + " | MB/s shm | tcp | NIO | shm/NIO | tcp/NIO |");
    System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (EchoRow row : rows) {
      double shm50 = row.shm().percentileMicros(0.5);
      double tcp50 = row.tcp().percentileMicros(0.5);
      double nio50 = row.nio().percentileMicros(0.5);
      double shmRate = row.shm().megabytesPerSecond();
      double tcpRate = row.tcp().megabytesPerSecond();
      double nioRate = row.nio().megabytesPerSecond();
      System.out.printf(
          Locale.ROOT,
          "| %d KB | %.1f | %.1f | %.1f | %.2f | %.2f | %.0f | %.0f | %.0f"
              + " | %.0f | %.0f | %.0f | %.2f | %.2f |%n",
          row.messageBytes() / 1024,
          shm50,
          tcp50,
          nio50,
          shm50 / nio50,
          tcp50 / nio50,
          row.shm().percentileMicros(0.99),
          row.tcp().percentileMicros(0.99),
          row.nio().percentileMicros(0.99),
          shmRate,
          tcpRate,
          nioRate,
          shmRate / nioRate,
          tcpRate / nioRate);
    }
  }

  static void writeCsv(List<EchoRow> rows, Path file) throws IOException {
    try (PrintWriter out =
        new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.US_ASCII))) {
      out.println(CSV_HEADER);
      for (EchoRow row : rows) {
        line(out, "shm", row.shm());
        line(out, "tcp", row.tcp());
        line(out, "nio", row.nio());
      }
    }
  }

  private static void line(PrintWriter out, String transport, EchoResult result) {
    out.printf(
        Locale.ROOT,
        "%s,%d,%.2f,%.2f,%.1f,%.0f%n",
        transport,
        result.messageBytes(),
        result.percentileMicros(0.5),
        result.percentileMicros(0.99),
        result.megabytesPerSecond(),
        result.streamedMessages() / (result.streamNanos() / 1e9));
  }
}
