package io.rubinbft.ledger;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs a main class in a child JVM (same java binary and class path) that prints one line {@code
 * ack <n> end} per acknowledged write, and kills it with SIGKILL at a seeded moment.
 */
public final class ChildJvm {

  private static final Pattern ACK = Pattern.compile("ack (\\d+) end");

  private ChildJvm() {}

  /** What a crash test checks once the child is dead: the reopened files hold every ack. */
  public interface AfterCrash {
    /**
     * @param acknowledged the acknowledgements of the run just killed
     * @param highestAcknowledged the highest acknowledgement of any run so far
     * @param replay names the seed and the crash, for assertion messages
     */
    void check(List<Long> acknowledged, long highestAcknowledged, String replay) throws IOException;
  }

  /**
   * Runs {@code main} {@code crashes} times on the same files, killing each run after 1 to {@code
   * maxAcks} acknowledgements, and calls {@code afterCrash} after each kill. The seed is {@code
   * -Drubin.seed} or random, printed under {@code test} so a failing run replays.
   *
   * @param args the child's arguments, drawn from the seeded generator before each run
   */
  public static void crashRepeatedly(
      String test,
      int crashes,
      Class<?> main,
      Function<Random, List<String>> args,
      int maxAcks,
      Path dir,
      AfterCrash afterCrash)
      throws IOException, InterruptedException {
    long seed = Long.getLong("rubin.seed", new Random().nextLong());
    System.out.println(test + " seed " + seed);
    Random random = new Random(seed);
    long highestAcknowledged = -1;
    for (int crash = 0; crash < crashes; crash++) {
      List<Long> acknowledged =
          runAndKill(
              main,
              args.apply(random),
              1 + random.nextInt(maxAcks),
              random,
              dir.resolve("stderr.txt"));
      highestAcknowledged = Math.max(highestAcknowledged, acknowledged.getLast());
      afterCrash.check(acknowledged, highestAcknowledged, "seed " + seed + ", crash " + crash);
    }
  }

  /** Prints an acknowledgement the way {@link #runAndKill} reads it. */
  public static void acknowledge(long number) {
    System.out.println("ack " + number + " end");
    System.out.flush();
  }

  /**
   * Starts {@code main}, waits for {@code acks} acknowledgements, lets it run a seeded few more
   * milliseconds, kills it with SIGKILL ({@code destroyForcibly}) and returns every acknowledgement
   * it printed, including those printed just before it died.
   */
  private static List<Long> runAndKill(
      Class<?> main, List<String> args, int acks, Random random, Path stderr)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("--enable-native-access=ALL-UNNAMED");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main.getName());
    command.addAll(args);
    Process child = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
    List<Long> acknowledged = new ArrayList<>();
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      while (acknowledged.size() < acks) {
        String line = out.readLine();
        if (line == null) {
          child.waitFor();
          throw new IllegalStateException(
              "child exited with status " + child.exitValue() + ": " + Files.readString(stderr));
        }
        record(line, acknowledged);
      }
      Thread.sleep(random.nextInt(20));
      // The handle's SIGKILL leaves the pipe open (Process.destroyForcibly would close it), so
      // the acknowledgements printed just before death can still be read.
      child.toHandle().destroyForcibly();
      child.waitFor();
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        record(line, acknowledged);
      }
    } finally {
      child.destroyForcibly();
    }
    return acknowledged;
  }

  private static void record(String line, List<Long> acknowledged) {
    Matcher matcher = ACK.matcher(line);
    if (matcher.matches()) {
      acknowledged.add(Long.parseLong(matcher.group(1)));
    }
  }
}
