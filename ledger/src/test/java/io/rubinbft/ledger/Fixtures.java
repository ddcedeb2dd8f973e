package io.rubinbft.ledger;

import java.nio.file.Files;
import java.nio.file.Path;

/** Locates ../shared/fabric-fixtures (golden data made by Fabric v3.1.5's own tools). */
final class Fixtures {

  private Fixtures() {}

  static Path root() {
    String configured = System.getProperty("rubin.fixtures");
    Path root = Path.of(configured != null ? configured : "../../shared/fabric-fixtures");
    if (!Files.isDirectory(root)) {
      throw new IllegalStateException(
          "Fabric fixtures not found at " + root.toAbsolutePath() + " (set -Drubin.fixtures)");
    }
    return root;
  }

  static Path block(int number) {
    return root().resolve("blocks").resolve(String.format("bft-%03d.block", number));
  }
}
