package io.rubinbft.orderer.cli;

import io.rubinbft.orderer.memory.HeapSize;
import java.nio.file.Path;

/**
 * What bin/rubin-orderer runs before {@code start}: prints the heap option for the plan in the
 * environment ({@code RUBIN_CHANNELS}, {@code RUBIN_BLOCK_MAX_BYTES}, {@code RUBIN_CONSENTERS})
 * under the memory limit ({@code RUBIN_MEMORY_LIMIT} or the cgroup's), or, when the plan does not
 * fit, the numbers on standard error and exits with status 1 so the node does not start. {@code
 * --explain} prints the sum instead. A class of its own, not a {@link Main} command: it runs in a
 * small JVM of its own that loads only what the sum needs.
 */
public final class HeapOption {

  public static void main(String[] args) {
    try {
      System.out.println(
          HeapSize.launcherOption(
              System.getenv(),
              Path.of("/sys/fs/cgroup"),
              args.length > 0 && args[0].equals("--explain")));
    } catch (IllegalArgumentException | IllegalStateException e) {
      System.err.println("rubin-orderer: " + e.getMessage());
      System.exit(1);
    }
  }

  private HeapOption() {}
}
