package io.rubinbft.repository;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.testdata.FabricTestData;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A clone of the repository with nothing beside it must build and pass its tests: no source,
 * script, build file or document may name a path outside the repository (the development machine's
 * notes folder kept beside the checkout or its absolute work folders). {@code .ci/run} proves the
 * same by running the suite in a fresh clone in an empty folder.
 */
class RepositoryStandsAloneTest {

  /** Paths that reach outside a clone: the folder beside it, the development machine's tree. */
  private static final Pattern OUTSIDE = Pattern.compile("\\.\\./shared\\b|(?<![\\w.])/work/");

  @Test
  void noFileNamesAPathOutsideTheRepository() throws IOException {
    Path root = RepositoryFiles.root();
    List<String> offending = new ArrayList<>();
    for (Path file : textFiles(root)) {
      List<String> lines = RepositoryFiles.readLines(file);
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
    Path root = RepositoryFiles.root();
    assertThat(FabricTestData.root().toAbsolutePath().normalize())
        .startsWith(root.toAbsolutePath().normalize());
    assertThat(FabricTestData.block(0)).isRegularFile();
  }

  /** The repository's text files less this folder (it names the patterns) and Fabric's output. */
  private static List<Path> textFiles(Path root) throws IOException {
    Path self = root.resolve("repository-checks/src/test/java/io/rubinbft/repository");
    Path fabricData = root.resolve("testdata/fabric");
    List<Path> files =
        RepositoryFiles.textFiles(root).stream()
            .filter(f -> !f.startsWith(self) && !f.startsWith(fabricData))
            .toList();
    assertThat(files).as("text files under " + root).isNotEmpty();
    return files;
  }
}
