package io.rubinbft.repository;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.repository.JavaSources.DeclaredType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Java type the design documents name in backticks exists: a newcomer who looks up a class
 * the architecture names must find it. The documents are the map a reader starts from: the design
 * documents in docs/ (docs/ARCHITECTURE.md, docs/RECONFIG.md, docs/THREAT-MODEL.md, ...; all but
 * docs/FABRIC.md, which describes Fabric's own code), the decision records in docs/adr/, the
 * repository's README.md and each top-level folder's README.md.
 *
 * <p>A code span is read as a type reference when it is a dotted name whose first capitalised
 * segment is a type name (CamelCase, not a CONSTANT), optionally followed by an argument list:
 * {@code orderer.grpc.GrpcListener}, {@code ChannelRuntime.submit}, {@code Event.ClientRequest},
 * {@code Replica.step(Event)}. In a code block (the data path's diagram, an example) only names
 * qualified by a package are read ({@code consensus.ReplicaHost}). A name resolves when
 *
 * <ul>
 *   <li>the repository's sources declare the type, in a package that ends with the lower-case
 *       segments before it (so {@code block.FabricProposals} must be in a package {@code
 *       ...block}), and each segment after it is a type declared in the same file (capitalised) or
 *       a word of that file (a member; protobuf field names with an underscore are not checked);
 *   <li>or it is an {@code orderer.yaml} setting the node reads ({@code config.Settings}) or a
 *       section of those settings ({@code General.Cluster.Transport});
 *   <li>or it is a type of the JDK's {@code java.*} modules;
 *   <li>or it is one of the {@link #OUTSIDE_THE_REPOSITORY} names (Fabric's protobuf messages and
 *       services, libraries' types, the codebases the principles cite).
 * </ul>
 *
 * Anything else fails, with the document, the line and the name.
 */
class DocumentedTypesTest {

  /**
   * Types the documents name that live outside the repository, as the documents write them:
   * Fabric's protobuf messages and gRPC services, the libraries' types, and the types of the
   * codebases the principles were taken from. A name here is never a class of this repository.
   */
  static final Set<String> OUTSIDE_THE_REPOSITORY =
      Set.of(
          // Fabric's protobuf messages, their fields and gRPC services (fabric-protos)
          "AtomicBroadcast",
          "orderer.AtomicBroadcast",
          "orderer.Cluster",
          "Block",
          "IdentifierHeader",
          "MetadataSignature",
          "OrdererBlockMetadata",
          "AbsoluteMaxBytes",
          // libraries: protobuf-java, gRPC's status proto, rocksdbjni, Agrona, BouncyCastle,
          // JSpecify
          "ByteString",
          "com.google.rpc.Status",
          "WriteOptions",
          "Agent",
          "StandardDSAEncoding",
          "org.jspecify.annotations.Nullable",
          // the codebases the principles cite: etcd raft's Ready and Inflights
          "Ready",
          "Inflights");

  /** A dotted name: lower-case qualifier, a CamelCase type, further segments, an argument list. */
  private static final Pattern NAME =
      Pattern.compile(
          "((?:[a-z][a-z0-9_]*\\.)*)([A-Z][A-Za-z0-9_]*[a-z][A-Za-z0-9_]*)((?:\\.[A-Za-z_]\\w*)*)"
              + "(?:\\(.*\\))?");

  /** A segment after the type that is a nested type (CamelCase), not a member or a CONSTANT. */
  private static final Pattern NESTED_TYPE = Pattern.compile("[A-Z]\\w*[a-z]\\w*");

  private static final Pattern DOT = Pattern.compile("\\.");

  private static final Pattern CODE_SPAN = Pattern.compile("`([^`]+)`");

  /** In a code block (a diagram, an example): only names qualified by a package are read. */
  private static final Pattern QUALIFIED =
      Pattern.compile("(?<![\\w.])((?:[a-z][a-z0-9]*\\.)+[A-Z]\\w*[a-z]\\w*(?:\\.\\w+)*)");

  private static final Pattern SETTING = Pattern.compile("of\\(\\s*\"([A-Za-z][\\w.]*)\"");

  /** A helper of {@code config.Settings} that makes the keys below a section it is given. */
  private static final Pattern SECTION_HELPER = Pattern.compile("(\\w+)\\(\\s*String section\\b");

  /** A key a section helper makes below its section: {@code section + ".Enabled"}. */
  private static final Pattern SECTION_KEY = Pattern.compile("section\\s*\\+\\s*\"(\\.\\w+)\"");

  @Test
  void everyTypeTheDesignDocumentsNameExists() throws IOException {
    Path root = RepositoryFiles.root();
    List<Path> documents = documents(root);
    assertThat(documents).as("design documents under %s", root).hasSizeGreaterThan(5);
    assertThat(unresolvedNames(root, documents))
        .as(
            "names in backticks that no source of the repository declares (rename to the class as"
                + " it is, or, for a type outside the repository, add it to"
                + " DocumentedTypesTest.OUTSIDE_THE_REPOSITORY)")
        .isEmpty();
  }

  @Test
  void findsTypesThatAreGoneMovedOrMissingAMember(@TempDir Path repo) throws IOException {
    Path source = Files.createDirectories(repo.resolve("node/src/main/java/io/x/node/grpc"));
    Files.writeString(
        source.resolve("Listener.java"),
        """
        package io.x.node.grpc;

        public final class Listener {
          public sealed interface Event {
            record Opened(int port) implements Event {}
          }

          void start(int port) {}
        }
        """);
    String name = "A" + ".md"; // built so that the scan for Markdown names does not find it here
    Path doc = Files.createDirectories(repo.resolve("docs")).resolve(name);
    Files.writeString(
        doc,
        """
        `grpc.Listener`, `node.grpc.Listener.start(port)`, `Listener.Event.Opened`,
        `IllegalStateException`, `java.util.Random`, `MetadataSignature`, `SUCCESS`,
        `orderer.yaml`, `/Channel/Writers`, `Block.header_hash`
        ```
        `Gone` in a code block is an example; a qualified grpc.Listener.start is checked: grpc.Gone
        ```
        `Gone`, `http.Listener`, `Listener.stop`, `Listener.Event.Closed`
        """);

    assertThat(unresolvedNames(repo, List.of(doc)))
        .containsExactly(
            "docs/" + name + ":5: `grpc.Gone`: no type of that name in the repository's sources",
            "docs/" + name + ":7: `Gone`: no type of that name in the repository's sources",
            "docs/"
                + name
                + ":7: `http.Listener`: no type Listener in a package ending in http (it is in"
                + " io.x.node.grpc)",
            "docs/" + name + ":7: `Listener.stop`: no stop in the file declaring Listener",
            "docs/"
                + name
                + ":7: `Listener.Event.Closed`: no type Closed in the file declaring Listener");
  }

  /** The design documents: the architecture, the reading order, the ADRs and the READMEs. */
  private static List<Path> documents(Path root) throws IOException {
    List<Path> documents = new ArrayList<>();
    documents.add(root.resolve("README.md"));
    try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md") && !p.endsWith("FABRIC" + ".md"))
          .sorted()
          .forEach(documents::add);
    }
    try (Stream<Path> adrs = Files.list(root.resolve("docs/adr"))) {
      adrs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(documents::add);
    }
    try (Stream<Path> folders = Files.list(root)) {
      folders
          .map(folder -> folder.resolve("README.md"))
          .filter(Files::isRegularFile)
          .sorted()
          .forEach(documents::add);
    }
    return documents;
  }

  /** Each name that does not resolve, as {@code path:line: `name`: why}, in document order. */
  static List<String> unresolvedNames(Path root, List<Path> documents) throws IOException {
    JavaSources sources = JavaSources.read(root);
    Set<String> settings = settings(sources);
    List<String> unresolved = new ArrayList<>();
    for (Path document : documents) {
      List<String> lines = RepositoryFiles.readLines(document);
      boolean fenced = false;
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i);
        if (line.strip().startsWith("```")) {
          fenced = !fenced;
          continue;
        }
        Matcher span = (fenced ? QUALIFIED : CODE_SPAN).matcher(line);
        while (span.find()) {
          String text = span.group(1).strip();
          Matcher name = NAME.matcher(text);
          if (!name.matches()) {
            continue;
          }
          Optional<String> why = unresolved(sources, settings, name);
          if (why.isPresent()) {
            unresolved.add(
                root.relativize(document).toString().replace('\\', '/')
                    + ":"
                    + (i + 1)
                    + ": `"
                    + text
                    + "`: "
                    + why.get());
          }
        }
      }
    }
    return unresolved;
  }

  private static Optional<String> unresolved(
      JavaSources sources, Set<String> settings, Matcher name) {
    String qualifier =
        name.group(1).isEmpty() ? "" : name.group(1).substring(0, name.group(1).length() - 1);
    String type = name.group(2);
    String dotted = name.group(1) + type + name.group(3);
    if (settings.contains(dotted)
        || settings.stream().anyMatch(key -> key.startsWith(dotted + "."))
        || OUTSIDE_THE_REPOSITORY.contains(name.group(1) + type)
        || OUTSIDE_THE_REPOSITORY.contains(dotted)) {
      return Optional.empty();
    }
    List<DeclaredType> declared = sources.named(type);
    if (declared.isEmpty()) {
      return inTheJdk(qualifier, type)
          ? Optional.empty()
          : Optional.of("no type of that name in the repository's sources");
    }
    List<DeclaredType> matching =
        declared.stream()
            .filter(d -> d.inPackageEndingWith(qualifier) || qualifier.isEmpty())
            .toList();
    if (matching.isEmpty()) {
      Set<String> packages = new TreeSet<>();
      declared.forEach(d -> packages.add(d.packageName()));
      return Optional.of(
          "no type "
              + type
              + " in a package ending in "
              + qualifier
              + " (it is in "
              + String.join(", ", packages)
              + ")");
    }
    for (String segment : DOT.splitAsStream(name.group(3)).toList()) {
      if (segment.isEmpty() || segment.contains("_")) {
        continue;
      }
      boolean nestedType = NESTED_TYPE.matcher(segment).matches();
      Pattern word =
          nestedType
              ? Pattern.compile(
                  "(?m)^\\s*(?:\\w+\\s+)*(?:class|interface|enum|record|@interface)\\s+"
                      + segment
                      + "\\b")
              : Pattern.compile("\\b" + Pattern.quote(segment) + "\\b");
      if (matching.stream().noneMatch(d -> word.matcher(sources.text(d.file())).find())) {
        return Optional.of(
            (nestedType ? "no type " : "no ") + segment + " in the file declaring " + type);
      }
    }
    return Optional.empty();
  }

  /** Whether a module {@code java.*} of the JDK has a public type of this name. */
  private static boolean inTheJdk(String qualifier, String type) {
    for (Module module : ModuleLayer.boot().modules()) {
      if (!module.getName().startsWith("java.")) {
        continue;
      }
      for (String pkg : module.getPackages()) {
        if ((qualifier.isEmpty() || pkg.equals(qualifier))
            && module.isExported(pkg)
            && Class.forName(module, pkg + "." + type) != null) {
          return true;
        }
      }
    }
    return false;
  }

  /** The orderer.yaml settings the node reads, as {@code config.Settings} declares them. */
  private static Set<String> settings(JavaSources sources) {
    Set<String> keys = new TreeSet<>();
    for (DeclaredType settings : sources.named("Settings")) {
      if (settings.production()) {
        String text = sources.text(settings.file());
        Matcher key = SETTING.matcher(text);
        while (key.find()) {
          keys.add(key.group(1));
        }
        List<String> sectionKeys = new ArrayList<>();
        Matcher sectionKey = SECTION_KEY.matcher(text);
        while (sectionKey.find()) {
          sectionKeys.add(sectionKey.group(1));
        }
        Matcher helper = SECTION_HELPER.matcher(text);
        while (helper.find()) {
          Matcher section =
              Pattern.compile("\\b" + helper.group(1) + "\\(\\s*\"([A-Z][\\w.]*)\"").matcher(text);
          while (section.find()) {
            for (String suffix : sectionKeys) {
              keys.add(section.group(1) + suffix);
            }
          }
        }
      }
    }
    return keys;
  }
}
