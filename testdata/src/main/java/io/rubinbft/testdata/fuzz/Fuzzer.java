package io.rubinbft.testdata.fuzz;

import com.sun.management.ThreadMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * Seeded mutation fuzzing in a plain JUnit test: runs a {@link FuzzTarget} on {@link Mutator}'s
 * inputs and fails on the first one that makes it throw anything but its documented refusal (an
 * {@link Error} such as {@link OutOfMemoryError} or {@link StackOverflowError} included), or that
 * makes it allocate more than its limit. Every input has its own generator, derived from the seed
 * and its iteration number, so the failure message's one-line command replays exactly it.
 *
 * <p>By default a fixed number of inputs from a fixed seed per target (the default suite). System
 * properties: {@code fuzz.seconds} runs each target for that long instead, from a fresh seed unless
 * {@code fuzz.seed} names one; {@code fuzz.seed} with {@code fuzz.iteration} replays one input.
 * Each run appends its {@link FuzzReport#line()} to {@code target/fuzz-report.txt}.
 */
public final class Fuzzer {

  /** Where each run's line goes, in the module's build folder (surefire's working folder). */
  private static final Path REPORT = Path.of("target", "fuzz-report.txt");

  private static final int DEFAULT_MAX_RANDOM_BYTES = 256;
  private static final int SHOWN_INPUT_BYTES = 512;
  private static final ThreadMXBean THREADS = (ThreadMXBean) ManagementFactory.getThreadMXBean();

  private final String name;
  private final List<byte[]> samples;
  private int inputs = 2_000;
  private int maxRandomBytes = DEFAULT_MAX_RANDOM_BYTES;
  private long allocationFixed = Long.MAX_VALUE;
  private long allocationPerInputByte;

  private Fuzzer(String name, List<byte[]> samples) {
    this.name = name;
    this.samples = samples;
  }

  /**
   * @param name the decoder, as the report names it
   * @param samples valid inputs the mutations start from
   */
  public static Fuzzer of(String name, List<byte[]> samples) {
    return new Fuzzer(name, samples);
  }

  /** Inputs in the default suite (ignored when {@code fuzz.seconds} is set). */
  public Fuzzer inputs(int count) {
    this.inputs = count;
    return this;
  }

  /** The longest pure random input. */
  public Fuzzer maxRandomBytes(int bytes) {
    this.maxRandomBytes = bytes;
    return this;
  }

  /**
   * Fails an input whose handling allocates more than {@code fixed + perInputByte * its length}
   * bytes on this thread: a length read from the input must not size an allocation beyond the
   * decoder's limit.
   */
  public Fuzzer allocationLimit(long fixed, long perInputByte) {
    this.allocationFixed = fixed;
    this.allocationPerInputByte = perInputByte;
    return this;
  }

  /** Runs the target; returns what it did. */
  public FuzzReport run(FuzzTarget target) {
    Location caller = Location.ofCaller();
    Mutator mutator = new Mutator(samples, maxRandomBytes);
    String seedProperty = System.getProperty("fuzz.seed");
    String iterationProperty = System.getProperty("fuzz.iteration");
    long seconds = Long.getLong("fuzz.seconds", 0);
    long seed =
        seedProperty != null
            ? Long.parseLong(seedProperty)
            : seconds > 0 ? new SplittableRandom().nextLong() : name.hashCode();
    if (iterationProperty != null) {
      long iteration = Long.parseLong(iterationProperty);
      boolean decoded = runOne(target, caller, mutator, seed, iteration);
      return new FuzzReport(name, seed, 1, decoded ? 1 : 0, 0);
    }
    long start = System.nanoTime();
    long deadline = start + seconds * 1_000_000_000L;
    long iteration = 0;
    long decoded = 0;
    while (seconds > 0 ? System.nanoTime() < deadline : iteration < inputs) {
      if (runOne(target, caller, mutator, seed, iteration)) {
        decoded++;
      }
      iteration++;
    }
    FuzzReport report = new FuzzReport(name, seed, iteration, decoded, System.nanoTime() - start);
    report.appendTo(REPORT);
    return report;
  }

  private boolean runOne(
      FuzzTarget target, Location caller, Mutator mutator, long seed, long iteration) {
    Attempt attempt = attempt(target, caller, mutator, seed, iteration);
    long limit = allocationLimit(attempt.input().length);
    if (attempt.allocated() > limit) {
      // Once more: the first use of a code path loads classes and links call sites, which
      // allocates too; what the input itself makes the decoder allocate comes back every time.
      Attempt again = attempt(target, caller, mutator, seed, iteration);
      if (again.allocated() > limit) {
        throw new AssertionError(
            failure(
                caller,
                seed,
                iteration,
                again.input(),
                "allocated "
                    + again.allocated()
                    + " bytes for an input of "
                    + again.input().length
                    + " (limit "
                    + limit
                    + ")"));
      }
    }
    return attempt.decoded();
  }

  /** One input, as {@code iteration} of {@code seed} makes it, and what handling it cost. */
  private record Attempt(byte[] input, boolean decoded, long allocated) {}

  private Attempt attempt(
      FuzzTarget target, Location caller, Mutator mutator, long seed, long iteration) {
    RandomGenerator random = random(seed, iteration);
    byte[] input = mutator.next(random);
    long before = THREADS.getCurrentThreadAllocatedBytes();
    try {
      boolean decoded = target.accept(input.clone(), random);
      return new Attempt(input, decoded, THREADS.getCurrentThreadAllocatedBytes() - before);
    } catch (Throwable finding) {
      throw new AssertionError(
          failure(caller, seed, iteration, input, finding.toString()), finding);
    }
  }

  private long allocationLimit(int inputBytes) {
    if (allocationFixed == Long.MAX_VALUE) {
      return Long.MAX_VALUE;
    }
    return allocationFixed + allocationPerInputByte * inputBytes;
  }

  /**
   * Each input's own generator: replaying one needs neither the inputs before it nor their time.
   */
  private static RandomGenerator random(long seed, long iteration) {
    return new SplittableRandom(seed + iteration * 0x9E37_79B9_7F4A_7C15L);
  }

  private String failure(Location caller, long seed, long iteration, byte[] input, String problem) {
    return String.format(
        Locale.ROOT,
        "fuzz %s, seed %d iteration %d: %s%n  replay: %s%n  input (%d bytes): %s",
        name,
        seed,
        iteration,
        problem,
        caller.replayCommand(seed, iteration),
        input.length,
        hex(input));
  }

  private static String hex(byte[] input) {
    String shown = HexFormat.of().formatHex(input, 0, Math.min(input.length, SHOWN_INPUT_BYTES));
    return input.length > SHOWN_INPUT_BYTES ? shown + "..." : shown;
  }

  /** The test method that runs the target, for the replay command. */
  private record Location(String module, String testClass, String method) {

    static Location ofCaller() {
      StackWalker.StackFrame frame =
          StackWalker.getInstance()
              .walk(
                  frames ->
                      frames
                          .filter(f -> !f.getClassName().startsWith(Fuzzer.class.getPackageName()))
                          .findFirst()
                          .orElseThrow());
      String className = frame.getClassName();
      String simpleName = className.substring(className.lastIndexOf('.') + 1);
      // Surefire runs each module's tests in the module's folder.
      Path folder = Path.of("").toAbsolutePath().getFileName();
      return new Location(String.valueOf(folder), simpleName, frame.getMethodName());
    }

    String replayCommand(long seed, long iteration) {
      return String.format(
          Locale.ROOT,
          "mvn -B -o -pl %s -am test -Dtest='%s#%s' -Dsurefire.failIfNoSpecifiedTests=false"
              + " -Dfuzz.seed=%d -Dfuzz.iteration=%d",
          module,
          testClass,
          method,
          seed,
          iteration);
    }
  }
}
