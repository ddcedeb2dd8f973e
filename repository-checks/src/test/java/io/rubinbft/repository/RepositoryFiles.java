package io.rubinbft.repository;

import io.rubinbft.testdata.FabricTestData;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** The repository's text files, as the repository-level checks read them. */
final class RepositoryFiles {

  /** Code, scripts, build and chart files, docs; recorded data (CSV) is not read. */
  private static final Set<String> TEXT_EXTENSIONS =
      Set.of(
          "java",
          "sh",
          "md",
          "yaml",
          "yml",
          "xml",
          "py",
          "go",
          "properties",
          "tpl",
          "txt",
          "json",
          "toml",
          "cfg",
          "conf");

  private static final Set<String> SKIPPED_FOLDERS = Set.of(".git", "target", "node_modules");

  private RepositoryFiles() {}

  /** The root of the repository holding the working directory. */
  static Path root() {
    return FabricTestData.repositoryRoot(Path.of("").toAbsolutePath());
  }

  /**
   * The text files git lists under {@code root} (tracked, or new and not ignored: what a commit of
   * the work tree would hold), else every text file below it outside build folders.
   */
  static List<Path> textFiles(Path root) throws IOException {
    Set<Path> files = new TreeSet<>();
    for (Path file : gitFiles(root).orElseGet(() -> walk(root))) {
      if (Files.isRegularFile(file) && isText(file)) {
        files.add(file);
      }
    }
    return new ArrayList<>(files);
  }

  /** A file's lines, as UTF-8 where it is, else byte for byte. */
  static List<String> readLines(Path file) throws IOException {
    try {
      return Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (MalformedInputException e) {
      return Files.readAllLines(file, StandardCharsets.ISO_8859_1);
    }
  }

  private static Optional<List<Path>> gitFiles(Path root) {
    if (!Files.exists(root.resolve(".git"))) {
      return Optional.empty();
    }
    try {
      Process git =
          new ProcessBuilder("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
              .directory(root.toFile())
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
      byte[] out = git.getInputStream().readAllBytes();
      if (!git.waitFor(60, TimeUnit.SECONDS) || git.exitValue() != 0) {
        return Optional.empty();
      }
      List<Path> files = new ArrayList<>();
      for (String name : new String(out, StandardCharsets.UTF_8).split("\0", -1)) {
        if (!name.isEmpty()) {
          files.add(root.resolve(name));
        }
      }
      return Optional.of(files);
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  private static List<Path> walk(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      return paths
          .filter(
              p -> {
                for (Path part : root.relativize(p)) {
                  if (SKIPPED_FOLDERS.contains(part.toString())) {
                    return false;
                  }
                }
                return true;
              })
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static boolean isText(Path file) throws IOException {
    String name = file.getFileName().toString();
    int dot = name.lastIndexOf('.');
    if (dot > 0) {
      return TEXT_EXTENSIONS.contains(name.substring(dot + 1).toLowerCase(Locale.ROOT));
    }
    try (var in = Files.newInputStream(file)) {
      byte[] start = in.readNBytes(2);
      return start.length == 2 && start[0] == '#' && start[1] == '!';
    }
  }
}
