package io.rubinbft.orderer.tools.bootstrap;

import io.rubinbft.orderer.testing.FabricFixtures;
import java.nio.file.Path;

/** Reads the Fabric golden data (testdata/fabric, made by Fabric v3.1.5's own tools). */
final class Fixtures {

  private Fixtures() {}

  static Path root() {
    return FabricFixtures.root();
  }

  /** cryptogen's output for the fixtures' network. */
  static Path crypto() {
    return root().resolve("crypto");
  }

  static Path genesisBlock() {
    return root().resolve("bft-genesis.block");
  }
}
