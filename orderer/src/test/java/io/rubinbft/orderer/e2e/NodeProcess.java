package io.rubinbft.orderer.e2e;

import io.rubinbft.orderer.cli.Main;
import io.rubinbft.orderer.memory.HeapSize;
import io.rubinbft.orderer.memory.MemoryBudgets;
import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * One orderer node as an operating system process: {@code rubin-orderer start --config F} in a JVM
 * of its own, launched from the JDK and class path this test runs on, with its output appended to a
 * log file. It can be killed with SIGKILL and started again on the same config and data.
 */
final class NodeProcess {

  /**
   * The flags surefire gives test JVMs, plus a small initial heap (four nodes share two cores) and
   * the ceiling of the largest channel these tests join: 10 MB blocks on up to 7 consenters (a node
   * refuses to join a channel its heap cannot hold at its worst). The serial collector grows the
   * heap only as far as the live data pushes it.
   */
  private static final List<String> JVM_FLAGS =
      List.of(
          "--add-exports",
          "java.base/jdk.internal.misc=ALL-UNNAMED",
          "--enable-native-access=ALL-UNNAMED",
          "-Xms32m",
          "-Xmx"
              + HeapSize.need(new HeapSize.Plan(1, 10 << 20, 7), MemoryBudgets.standard())
                      .heapBytes()
                  / (1 << 20)
              + "m",
          "-XX:+UseSerialGC",
          "-XX:TieredStopAtLevel=1");

  /**
   * The launcher's memory defaults for {@code start} (deploy/image/dist/rubin-orderer): the heap
   * and direct memory its default plan needs ({@link HeapSize}, as the launcher asks it with no
   * plan and no memory limit), its young generation and the exit on heap exhaustion, in place of
   * the test heaps above.
   */
  private static final List<String> LAUNCHER_MEMORY =
      Stream.of(
              Stream.of("-Xms64m"),
              Stream.of(
                  HeapSize.launcherOption(Map.of(), Path.of("/nonexistent"), false).split(" ")),
              Stream.of(
                  "-XX:NewRatio=5", "-XX:+UseCompactObjectHeaders", "-XX:+ExitOnOutOfMemoryError"))
          .flatMap(flags -> flags)
          .toList();

  private final String name;
  private boolean launcherMemory;
  private LauncherDistribution launcher;
  private Map<String, String> plan = Map.of();
  private final Path config;
  private final Path log;
  private final Map<String, String> environment;
  private final Map<String, String> extraEnvironment = new java.util.HashMap<>();
  private Process process;

  /**
   * @param environment ORDERER_... overrides of the node's orderer.yaml
   */
  NodeProcess(String name, Path config, Path log, Map<String, String> environment) {
    this.name = name;
    this.config = config;
    this.log = log;
    this.environment = Map.copyOf(environment);
  }

  String name() {
    return name;
  }

  Path log() {
    return log;
  }

  synchronized void start() throws IOException {
    if (process != null && process.isAlive()) {
      throw new IllegalStateException(name + " is running already");
    }
    List<String> command = new ArrayList<>();
    if (launcher != null) {
      command.add(launcher.launcher().toString());
    } else {
      command.add(ProcessHandle.current().info().command().orElseThrow());
      command.addAll(
          launcherMemory
              ? JVM_FLAGS.stream().filter(flag -> !flag.startsWith("-Xm")).toList()
              : JVM_FLAGS);
      if (launcherMemory) {
        command.addAll(LAUNCHER_MEMORY);
      }
      command.add("-cp");
      command.add(classPath());
      command.add(Main.class.getName());
    }
    command.addAll(List.of("start", "--config", config.toString()));
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(Redirect.appendTo(log.toFile()));
    builder.environment().put("FABRIC_LOGGING_SPEC", "info");
    if (launcher != null) {
      builder.environment().put("JAVA_HOME", LauncherDistribution.javaHome().toString());
      builder.environment().putAll(plan);
    }
    builder.environment().putAll(environment);
    builder.environment().putAll(extraEnvironment);
    process = builder.start();
  }

  /** From the next start on, the launcher's memory defaults instead of the test heap. */
  synchronized void useLauncherMemory() {
    launcherMemory = true;
  }

  /**
   * From the next start on, started as an operator starts a node: by the distribution's launcher
   * {@code distribution} (bin/rubin-orderer), with {@code plan} in its environment (RUBIN_CHANNELS,
   * RUBIN_BLOCK_MAX_BYTES, ...), so the heap and every JVM flag are the launcher's own. The
   * launcher execs the JVM, so this process is the node's JVM (signals and /proc reach it).
   */
  synchronized void useLauncher(LauncherDistribution distribution, Map<String, String> plan) {
    this.launcher = distribution;
    this.plan = Map.copyOf(plan);
  }

  /** From the next start on, {@code variable} (an ORDERER_... override) set for this node only. */
  synchronized void putEnvironment(String variable, String value) {
    extraEnvironment.put(variable, value);
  }

  /** The running process's id, empty while it is not running. */
  synchronized OptionalLong pid() {
    return isAlive() ? OptionalLong.of(process.pid()) : OptionalLong.empty();
  }

  /**
   * The running process's resident memory now and its peak since it started ({@code VmRSS} and
   * {@code VmHWM} of /proc/PID/status, in bytes), empty while it is not running.
   */
  synchronized Optional<Rss> rss() {
    if (!isAlive()) {
      return Optional.empty();
    }
    try {
      long now = 0;
      long peak = 0;
      for (String line :
          Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
        if (line.startsWith("VmRSS:")) {
          now = kilobytes(line) * 1024;
        } else if (line.startsWith("VmHWM:")) {
          peak = kilobytes(line) * 1024;
        }
      }
      return Optional.of(new Rss(now, peak));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** Resident memory of a node process, in bytes. */
  record Rss(long now, long peak) {}

  private static long kilobytes(String statusLine) {
    return Long.parseLong(statusLine.replaceAll("[^0-9]", ""));
  }

  /**
   * The lines of this node's log (all its runs) that say a JVM died or a thread ended on an error:
   * {@code OutOfMemoryError} and uncaught exceptions ("Exception in thread").
   */
  List<String> deathsInLog() throws IOException {
    if (!Files.exists(log)) {
      return List.of();
    }
    try (var lines = Files.lines(log, java.nio.charset.StandardCharsets.ISO_8859_1)) {
      return lines
          .filter(l -> l.contains("OutOfMemoryError") || l.contains("Exception in thread"))
          .toList();
    }
  }

  synchronized boolean isAlive() {
    return process != null && process.isAlive();
  }

  /** SIGSTOP: the process keeps its sockets and memory and answers nothing until resumed. */
  synchronized void pause() throws IOException, InterruptedException {
    signal("STOP");
  }

  /** SIGCONT after {@link #pause}. */
  synchronized void resume() throws IOException, InterruptedException {
    signal("CONT");
  }

  private void signal(String signal) throws IOException, InterruptedException {
    Process kill =
        new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
            .redirectErrorStream(true)
            .start();
    if (kill.waitFor() != 0) {
      throw new IOException("kill -" + signal + " " + process.pid() + " failed");
    }
  }

  /** SIGKILL: no shutdown hook runs, nothing is flushed that was not already durable. */
  synchronized void kill() throws InterruptedException {
    if (process != null) {
      process.destroyForcibly();
      process.waitFor();
    }
  }

  /** SIGKILL without waiting, for a JVM shutdown hook. */
  synchronized void destroy() {
    if (process != null) {
      process.destroyForcibly();
    }
  }

  /**
   * The test class path: surefire names it in {@code surefire.test.class.path} when it starts the
   * tests through a manifest-only jar.
   */
  static String classPath() {
    return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
  }

  @Override
  public String toString() {
    return name + " (log " + log + ")";
  }
}
