package io.rubinbft.orderer.tools.loadgen;

import io.rubinbft.testdata.FabricTestData;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Child JVMs of a benchmark (same java binary and class path, the JVM flags chosen by the caller)
 * and the CPU time processes have used, so that each side of a measurement is counted apart.
 */
final class JavaProcess {

  private JavaProcess() {}

  /** Starts {@code main} in a new JVM with {@code jvmFlags}; the fixtures path is passed on. */
  static ProcessBuilder builder(List<String> jvmFlags, Class<?> main, List<String> arguments) {
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElseThrow());
    command.addAll(jvmFlags);
    command.add("-D" + FabricTestData.PROPERTY + "=" + FabricTestData.root().toAbsolutePath());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main.getName());
    command.addAll(arguments);
    return new ProcessBuilder(command);
  }

  /** CPU time (user + system, all threads) this process has used so far, in nanoseconds. */
  static long ownCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /** CPU time (user + system, all threads) {@code process} has used so far, in nanoseconds. */
  static long cpuNanos(Process process) {
    return process
        .toHandle()
        .info()
        .totalCpuDuration()
        .map(Duration::toNanos)
        .orElseThrow(() -> new IllegalStateException("no CPU time for process " + process.pid()));
  }

  /** The machine's 1, 5 and 15 minute load averages, as /proc/loadavg has them. */
  static String loadAverages() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ", 0);
      return fields[0] + " " + fields[1] + " " + fields[2];
    } catch (IOException e) {
      return "unknown (" + e.getMessage() + ")";
    }
  }
}
