package io.rubinbft.repository;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
 */
class MarkdownReferencesTest {

  /** A path of word characters, dots, dashes and slashes ending in a Markdown file name. */
  private static final Pattern REFERENCE =
      Pattern.compile("(?<![\\w.$/*{-])((?:[\\w.~:-]*/)*[\\w][\\w.-]*\\.md)(?![\\w-])");

  /** A Markdown link: its label is text for the reader, its target is what must resolve. */
  private static final Pattern MARKDOWN_LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");

  @Test
  void everyNamedMarkdownFileIsInTheRepository() throws IOException {
    Path root = RepositoryFiles.root();
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
    List<Path> files = RepositoryFiles.textFiles(root);
    List<Path> moduleRoots = new ArrayList<>();
    for (Path file : files) {
      if (file.getFileName().toString().equals("pom.xml")) {
        moduleRoots.add(file.getParent());
      }
    }
    List<String> dangling = new ArrayList<>();
    for (Path file : files) {
      List<String> lines = RepositoryFiles.readLines(file);
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
}
