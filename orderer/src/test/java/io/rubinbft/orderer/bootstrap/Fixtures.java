package io.rubinbft.orderer.bootstrap;

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

  /** cryptogen's output for the fixtures' network. */
  static Path crypto() {
    return root().resolve("crypto");
  }

  static Path genesisBlock() {
    return root().resolve("bft-genesis.block");
  }
}
