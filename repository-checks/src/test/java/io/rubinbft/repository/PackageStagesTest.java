package io.rubinbft.repository;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/ARCHITECTURE.md's "Packages by stage" places every production package of the orderer,
 * bft-core, the ledger and rdma-net on a stage of a transaction's path, so that a newcomer can name
 * the stage of any class on it, and a new package must be placed when it is added. The table must
 * hold every package and no package that is gone, name only the stages below, and each class a row
 * names must be in that row's package.
 */
class PackageStagesTest {

  /** The modules whose packages the table places. */
  static final List<String> MODULES = List.of("orderer", "bft-core", "ledger", "rdma-net");

  /** The stages of the path, then the ones around it, as the document names them. */
  static final Set<String> STAGES =
      Set.of(
          "broadcast",
          "validation",
          "request pool",
          "consensus",
          "block",
          "ledger",
          "deliver",
          "cluster",
          "lifecycle",
          "config",
          "operations",
          "shared",
          "launcher",
          "tooling");

  private static final String HEADING = "## Packages by stage";

  /** The common prefix of the packages, left out in the table. */
  private static final String PREFIX = "io.rubinbft.";

  private static final Pattern ROW =
      Pattern.compile("^\\|\\s*`([\\w.]+)`\\s*\\|([^|]*)\\|([^|]*)\\|\\s*$");

  private static final Pattern COMMA = Pattern.compile(",");

  private static final Pattern CLASS = Pattern.compile("`([A-Z][A-Za-z0-9]*)`");

  @Test
  void everyProductionPackageIsPlacedOnAStage() throws IOException {
    Path root = RepositoryFiles.root();
    assertThat(findings(root, root.resolve("docs/ARCHITECTURE.md"), MODULES))
        .as(
            "docs/ARCHITECTURE.md \"Packages by stage\" against the packages of %s (place a new"
                + " package on its stage; rename or drop a row for one that moved)",
            MODULES)
        .isEmpty();
  }

  @Test
  void findsAnUnplacedPackageAStaleRowAnUnknownStageAndAMisplacedClass(@TempDir Path repo)
      throws IOException {
    write(
        repo,
        "lib/src/main/java/io/rubinbft/lib/Api.java",
        "package io.rubinbft.lib;\nclass Api {}");
    write(
        repo,
        "lib/src/main/java/io/rubinbft/lib/wire/Codec.java",
        "package io.rubinbft.lib.wire;\nclass Codec {}");
    write(
        repo,
        "lib/src/main/java/io/rubinbft/lib/disk/Store.java",
        "package io.rubinbft.lib.disk;\nclass Store {}");
    Path doc =
        write(
            repo,
            "docs/ARCHITECTURE.md",
            """
            # A

            ## Packages by stage

            | package | stage | classes |
            |---|---|---|
            | `lib` | consensus | `Api` |
            | `lib.wire` | consensus, wiring | `Codec`, `Api` |
            | `lib.gone` | ledger | |

            ## Next
            | `lib.disk` | ledger | `Store` |
            """);

    assertThat(findings(repo, doc, List.of("lib")))
        .containsExactly(
            "docs/ARCHITECTURE.md:8: `lib.wire`: no stage wiring (the stages are " + sorted() + ")",
            "docs/ARCHITECTURE.md:8: `lib.wire`: no class Api in io.rubinbft.lib.wire",
            "docs/ARCHITECTURE.md:9: `lib.gone`: no such production package in lib",
            "docs/ARCHITECTURE.md: `lib.disk` is in no row of \"" + HEADING + "\"");
  }

  /** What is wrong with the table, as {@code path:line: `package`: why}; empty when nothing. */
  static List<String> findings(Path root, Path document, List<String> modules) throws IOException {
    JavaSources sources = JavaSources.read(root);
    Map<String, String> moduleOfPackage = new LinkedHashMap<>();
    for (String module : modules) {
      for (String pkg : sources.productionPackages(module)) {
        moduleOfPackage.put(pkg, module);
      }
    }
    String where = root.relativize(document).toString().replace('\\', '/');
    List<String> findings = new ArrayList<>();
    Set<String> placed = new HashSet<>();
    List<String> lines = RepositoryFiles.readLines(document);
    int start = lines.indexOf(HEADING);
    assertThat(start).as("%s has a section \"%s\"", where, HEADING).isNotNegative();
    for (int i = start + 1; i < lines.size() && !lines.get(i).startsWith("## "); i++) {
      Matcher row = ROW.matcher(lines.get(i));
      if (!row.matches()) {
        continue;
      }
      String pkg = PREFIX + row.group(1);
      String at = where + ":" + (i + 1) + ": `" + row.group(1) + "`: ";
      placed.add(pkg);
      for (String stage : COMMA.splitAsStream(row.group(2)).toList()) {
        if (!STAGES.contains(stage.strip())) {
          findings.add(at + "no stage " + stage.strip() + " (the stages are " + sorted() + ")");
        }
      }
      if (!moduleOfPackage.containsKey(pkg)) {
        findings.add(at + "no such production package in " + String.join(", ", modules));
        continue;
      }
      Matcher named = CLASS.matcher(row.group(3));
      while (named.find()) {
        String name = named.group(1);
        boolean there =
            sources.named(name).stream()
                .anyMatch(t -> t.production() && t.packageName().equals(pkg));
        if (!there) {
          findings.add(at + "no class " + name + " in " + pkg);
        }
      }
    }
    for (String pkg : moduleOfPackage.keySet()) {
      if (!placed.contains(pkg)) {
        findings.add(
            where
                + ": `"
                + pkg.substring(PREFIX.length())
                + "` is in no row of \""
                + HEADING
                + "\"");
      }
    }
    return findings;
  }

  private static String sorted() {
    SortedSet<String> stages = new TreeSet<>(STAGES);
    return String.join(", ", stages);
  }

  private static Path write(Path root, String relative, String text) throws IOException {
    Path file = root.resolve(relative);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text + "\n");
    return file;
  }
}
