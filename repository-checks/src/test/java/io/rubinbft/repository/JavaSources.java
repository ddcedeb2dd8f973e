package io.rubinbft.repository;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Java types the repository's sources declare ({@code src/main/java} and {@code src/test/java}
 * of every module), read from the source text: a type is a {@code class}, {@code interface}, {@code
 * enum}, {@code record} or {@code @interface} declared at the start of a line, nested ones
 * included.
 */
final class JavaSources {

  /** One declared type: its package, its simple name, the file declaring it. */
  record DeclaredType(String packageName, String name, Path file, boolean production) {

    /**
     * Whether {@code qualifier} (e.g. {@code orderer.grpc}) names this type's package or its end.
     */
    boolean inPackageEndingWith(String qualifier) {
      return packageName.equals(qualifier) || packageName.endsWith("." + qualifier);
    }
  }

  private static final Pattern PACKAGE = Pattern.compile("(?m)^package\\s+([\\w.]+)\\s*;");

  private static final Pattern DECLARATION =
      Pattern.compile(
          "(?m)^\\s*(?:(?:public|protected|private|static|final|abstract|sealed|non-sealed"
              + "|strictfp)\\s+)*(?:class|interface|enum|record|@interface)\\s+([A-Z]\\w*)");

  private final Map<String, List<DeclaredType>> bySimpleName = new HashMap<>();
  private final Map<Path, String> texts = new HashMap<>();
  private final Map<String, SortedSet<String>> productionPackagesByModule = new HashMap<>();

  private JavaSources() {}

  /** Reads every Java source file under {@code root}'s modules. */
  static JavaSources read(Path root) throws IOException {
    JavaSources sources = new JavaSources();
    for (Path file : RepositoryFiles.textFiles(root)) {
      String relative = root.relativize(file).toString().replace('\\', '/');
      boolean production = relative.contains("/src/main/java/");
      if (!relative.endsWith(".java") || !(production || relative.contains("/src/test/java/"))) {
        continue;
      }
      String text = String.join("\n", RepositoryFiles.readLines(file));
      sources.texts.put(file, text);
      Matcher pkg = PACKAGE.matcher(text);
      String packageName = pkg.find() ? pkg.group(1) : "";
      if (production) {
        String module = relative.substring(0, relative.indexOf("/src/main/java/"));
        sources
            .productionPackagesByModule
            .computeIfAbsent(module, m -> new TreeSet<>())
            .add(packageName);
      }
      Matcher declaration = DECLARATION.matcher(text);
      while (declaration.find()) {
        String name = declaration.group(1);
        sources
            .bySimpleName
            .computeIfAbsent(name, n -> new ArrayList<>())
            .add(new DeclaredType(packageName, name, file, production));
      }
    }
    return sources;
  }

  /** The types with this simple name, in any package. */
  List<DeclaredType> named(String simpleName) {
    return bySimpleName.getOrDefault(simpleName, List.of());
  }

  /** The text of a source file this index read. */
  String text(Path file) {
    return texts.get(file);
  }

  /** The packages of a module's production sources ({@code orderer}, {@code bft-core}, ...). */
  SortedSet<String> productionPackages(String module) {
    return productionPackagesByModule.getOrDefault(module, new TreeSet<>());
  }
}
