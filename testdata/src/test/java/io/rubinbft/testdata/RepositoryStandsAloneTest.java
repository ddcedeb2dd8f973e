package io.rubinbft.testdata;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A clone of the repository with nothing beside it must build and pass its tests: no source,
 * script, build file or document may name a path outside the repository (the development machine's
 * {@code ../shared} folder or its absolute work folders). {@code .ci/run} proves the same by
 * running the suite in a fresh clone in an empty folder.
 */
class RepositoryStandsAloneTest {

  /** Paths that reach outside a clone: the folder beside it, the development machine's tree. */
  private static final Pattern OUTSIDE = Pattern.compile("\\.\\./shared\\b|(?<![\\w.])/work/");

  /** What is read: code, scripts, build and chart files, docs. Recorded data (CSV) is not. */
  private static final Set<String> TEXT =
      Set.of(
          "java",
          "sh",
          "xml",
          "md",
          "yaml",
          "yml",
          "properties",
          "tpl",
          "txt",
          "json",
          "toml",
          "conf",
          "py",
          "go");

  @Test
  void noFileNamesAPathOutsideTheRepository() throws IOException {
    Path root = FabricTestData.repositoryRoot(Path.of("").toAbsolutePath());
    List<String> offending = new ArrayList<>();
    for (Path file : textFiles(root)) {
      List<String> lines = Files.readAllLines(file, StandardCharsets.ISO_8859_1);
      for (int i = 0; i < lines.size(); i++) {
        if (OUTSIDE.matcher(lines.get(i)).find()) {
          offending.add(root.relativize(file) + ":" + (i + 1) + ": " + lines.get(i).strip());
        }
      }
    }
    assertThat(offending).as("lines naming a path outside the repository").isEmpty();
  }

  @Test
  void theFabricTestDataIsInTheRepository() {
    Path root = FabricTestData.repositoryRoot(Path.of("").toAbsolutePath());
    assertThat(FabricTestData.root().toAbsolutePath().normalize())
        .startsWith(root.toAbsolutePath().normalize());
    assertThat(FabricTestData.block(0)).isRegularFile();
  }

  /** The files git tracks (what a clone has), less this folder and Fabric's own output. */
  private static List<Path> textFiles(Path root) throws IOException {
    // This very file names the patterns it looks for, and testdata/fabric is Fabric's own output.
    Path self = root.resolve("testdata/src/test/java/io/rubinbft/testdata");
    Path fabricData = root.resolve("testdata/fabric");
    List<Path> files = new ArrayList<>();
    for (String name : trackedFiles(root)) {
      Path file = root.resolve(name);
      if (!file.startsWith(self)
          && !file.startsWith(fabricData)
          && Files.isRegularFile(file)
          && isText(file)) {
        files.add(file);
      }
    }
    assertThat(files).as("tracked text files under " + root).isNotEmpty();
    return files;
  }

  private static List<String> trackedFiles(Path root) throws IOException {
    Process git =
        new ProcessBuilder("git", "-C", root.toString(), "ls-files", "-z")
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    byte[] out = git.getInputStream().readAllBytes();
    try {
      assertThat(git.waitFor()).as("git ls-files in " + root).isZero();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
    return List.of(new String(out, StandardCharsets.UTF_8).split("\0"));
  }

  private static boolean isText(Path file) throws IOException {
    String name = file.getFileName().toString();
    int dot = name.lastIndexOf('.');
    if (dot >= 0) {
      return TEXT.contains(name.substring(dot + 1));
    }
    try (var in = Files.newInputStream(file)) {
      byte[] start = in.readNBytes(2);
      return start.length == 2 && start[0] == '#' && start[1] == '!';
    }
  }
}
