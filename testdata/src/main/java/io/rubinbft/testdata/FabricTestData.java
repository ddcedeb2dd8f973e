package io.rubinbft.testdata;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Locates the Fabric golden data in the repository ({@code testdata/fabric/}: blocks, genesis,
 * crypto, envelopes, participation answers, made by Fabric v3.1.5's own tools; see its README).
 * Every module's tests find it here and nowhere else, so a clone of the repository alone has all
 * its tests need.
 */
public final class FabricTestData {

  /**
   * Set by a test that starts another JVM (whose working directory may lie outside the repository)
   * to the absolute folder this JVM found.
   */
  public static final String PROPERTY = "rubin.fixtures";

  private static final Path RELATIVE = Path.of("testdata", "fabric");

  private FabricTestData() {}

  /**
   * The data folder: {@link #PROPERTY} if set, otherwise {@code testdata/fabric} in the repository
   * that holds the working directory (found by walking up to the folder with the root pom).
   */
  public static Path root() {
    String configured = System.getProperty(PROPERTY);
    Path root =
        configured != null
            ? Path.of(configured)
            : repositoryRoot(Path.of("").toAbsolutePath()).resolve(RELATIVE);
    if (!Files.isRegularFile(root.resolve("README.md"))) {
      throw new IllegalStateException("Fabric test data not found at " + root.toAbsolutePath());
    }
    return root;
  }

  /** A file of the data, by its path relative to {@link #root()}. */
  public static Path path(String relative) {
    return root().resolve(relative);
  }

  /** The bytes of a file of the data, by its path relative to {@link #root()}. */
  public static byte[] bytes(String relative) {
    try {
      return Files.readAllBytes(path(relative));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Block {@code number} of the recorded chain as orderer1 served it ({@code blocks/bft-NNN}). */
  public static Path block(int number) {
    return path(String.format("blocks/bft-%03d.block", number));
  }

  /**
   * The repository's root: the nearest folder at or above {@code start} that holds both the root
   * pom and {@code testdata/fabric}. Never a folder outside the repository.
   */
  public static Path repositoryRoot(Path start) {
    for (Path dir = start; dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("pom.xml")) && Files.isDirectory(dir.resolve(RELATIVE))) {
        return dir;
      }
    }
    throw new IllegalStateException(
        "no repository root (a folder with pom.xml and testdata/fabric) at or above " + start);
  }
}
