package io.rubinbft.repo;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Markdown file a comment or document names is in the repository: the design and the
 * measurements a reader is sent to must be there to read. Scans the repository's text files (Java,
 * shell, Markdown, YAML, XML, Python, properties, templates and scripts with a shebang) for names
 * ending in {@code .md}, with or without a folder, and resolves each against the naming file's
 * folder, the repository root and every module root (a folder with a {@code pom.xml}). A name that
 * resolves nowhere, or only outside the repository (an absolute path, one that climbs out with
 * {@code ..}), is dangling; the test names each one with its file and line. Web addresses are not
 * checked.
 *
 * <p>Repository-level check: it depends on no module's code and lives in this module only because a
 * test here runs in the default build.
 */
class MarkdownReferencesTest {

  /** A path of word characters, dots, dashes and slashes ending in a Markdown file name. */
  private static final Pattern REFERENCE =
      Pattern.compile("(?<![\\w.$/*{-])((?:[\\w.~:-]*/)*[\\w][\\w.-]*\\.md)(?![\\w-])");

  /** A Markdown link: its label is text for the reader, its target is what must resolve. */
  private static final Pattern MARKDOWN_LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");

  private static final Set<String> TEXT_EXTENSIONS =
      Set.of(
          "java",
          "sh",
          "md",
          "yaml",
          "yml",
          "xml",
          "py",
          "properties",
          "tpl",
          "txt",
          "json",
          "cfg");

  private static final Set<String> SKIPPED_FOLDERS = Set.of(".git", "target", "node_modules");

  @Test
  void everyNamedMarkdownFileIsInTheRepository() throws IOException {
    Path root = repositoryRoot(Path.of("").toAbsolutePath());
    List<String> dangling = danglingReferences(root);
    assertThat(dangling)
        .as(
            "Markdown files named in %s but not in it (add the file, or point the reference at"
                + " one that exists)",
            root)
        .isEmpty();
  }

  @Test
  void findsANameThatResolvesNowhereAndAcceptsOnesThatResolve(@TempDir Path tmp)
      throws IOException {
    Path repo = Files.createDirectories(tmp.resolve("repo"));
    String missing = "NOWHERE" + ".md";
    String present = "PRESENT" + ".md";
    String beside = ".." + "/shared/"; // the folder beside a clone, built so no scan finds it here
    Files.writeString(repo.resolve("pom.xml"), "<project/>");
    Path module = Files.createDirectories(repo.resolve("lib/docs"));
    Files.writeString(repo.resolve("lib/pom.xml"), "<project/>");
    Files.writeString(module.resolve(present), "# here\n");
    Path source = Files.createDirectories(repo.resolve("lib/src/main/java/x"));
    Files.writeString(
        source.resolve("A.java"),
        String.join(
            "\n",
            "/** See docs/" + present + " (module root), lib/docs/" + present + " (root). */",
            "// https://example.org/" + missing + " is a web address, not checked",
            "// but " + missing + " is not here, nor " + beside + present + " outside it",
            ""));
    Files.writeString(
        repo.resolve("lib/docs/GUIDE" + ".md"),
        "[" + present + "](" + present + "#a-section) and [the guide](" + missing + ")\n");
    Path shared = Files.createDirectories(tmp.resolve("shared"));
    Files.writeString(shared.resolve(present), "# outside\n");

    assertThat(danglingReferences(repo))
        .containsExactly(
            "lib/docs/GUIDE" + ".md:1: " + missing,
            "lib/src/main/java/x/A.java:3: " + missing,
            "lib/src/main/java/x/A.java:3: " + beside + present);
  }

  /** Each dangling reference as {@code path:line: name}, in file and line order. */
  static List<String> danglingReferences(Path root) throws IOException {
    List<Path> files = textFiles(root);
    List<Path> moduleRoots = new ArrayList<>();
    for (Path file : files) {
      if (file.getFileName().toString().equals("pom.xml")) {
        moduleRoots.add(file.getParent());
      }
    }
    List<String> dangling = new ArrayList<>();
    for (Path file : files) {
      List<String> lines = readLines(file);
      boolean markdown = file.getFileName().toString().endsWith(".md");
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i);
        if (markdown) {
          line = MARKDOWN_LINK.matcher(line).replaceAll(" $1 ");
        }
        Matcher matcher = REFERENCE.matcher(line);
        while (matcher.find()) {
          String name = matcher.group(1);
          if (!name.contains("://") && !resolves(root, file, moduleRoots, name)) {
            dangling.add(root.relativize(file) + ":" + (i + 1) + ": " + name);
          }
        }
      }
    }
    return dangling;
  }

  private static boolean resolves(Path root, Path file, List<Path> moduleRoots, String name) {
    if (name.startsWith("/") || name.startsWith("~")) {
      return false;
    }
    List<Path> bases = new ArrayList<>();
    bases.add(file.getParent());
    bases.add(root);
    bases.addAll(moduleRoots);
    for (Path base : bases) {
      Path candidate = base.resolve(name).normalize();
      if (candidate.startsWith(root) && Files.isRegularFile(candidate)) {
        return true;
      }
    }
    return false;
  }

  /** The repository's files, as git lists them (tracked or new, not ignored), else by walking. */
  private static List<Path> textFiles(Path root) throws IOException {
    Set<Path> files = new TreeSet<>();
    for (Path file : gitFiles(root).orElseGet(() -> walk(root))) {
      if (Files.isRegularFile(file) && isText(file)) {
        files.add(file);
      }
    }
    return new ArrayList<>(files);
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
      for (String name : new String(out, StandardCharsets.UTF_8).split("\0")) {
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

  private static List<String> readLines(Path file) throws IOException {
    try {
      return Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (MalformedInputException e) {
      return Files.readAllLines(file, StandardCharsets.ISO_8859_1);
    }
  }

  /**
   * The folder holding {@code .git}, else the outermost folder with a {@code pom.xml}, walking up
   * from {@code start}.
   */
  static Path repositoryRoot(Path start) {
    Path outermostPom = null;
    for (Path dir = start; dir != null; dir = dir.getParent()) {
      if (Files.exists(dir.resolve(".git"))) {
        return dir;
      }
      if (Files.isRegularFile(dir.resolve("pom.xml"))) {
        outermostPom = dir;
      }
    }
    if (outermostPom == null) {
      throw new IllegalStateException("no .git or pom.xml above " + start);
    }
    return outermostPom;
  }
}
