package io.rubinbft.orderer.e2e;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;

/**
 * The distribution's layout, made from this build, so that a test starts nodes with the launcher an
 * operator runs: {@code bin/rubin-orderer} is the repository's launcher (deploy/image/dist) as it
 * is, {@code lib/jdk.sh} the project's JDK finder beside it, and {@code lib/classpath.jar} a jar
 * with nothing but a manifest naming the test class path (the launcher runs {@code -cp lib/*}, and
 * a manifest's Class-Path is how a jar names directories and other jars).
 *
 * @param launcher the copied {@code bin/rubin-orderer}
 */
record LauncherDistribution(Path launcher) {

  /** Lays the distribution out under {@code dir}. */
  static LauncherDistribution create(Path dir) throws IOException {
    Path root = repositoryRoot();
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path lib = Files.createDirectories(dir.resolve("lib"));
    Path launcher = bin.resolve("rubin-orderer");
    Files.copy(
        root.resolve("deploy/image/dist/rubin-orderer"),
        launcher,
        StandardCopyOption.REPLACE_EXISTING);
    Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.copy(
        root.resolve("scripts/jdk.sh"), lib.resolve("jdk.sh"), StandardCopyOption.REPLACE_EXISTING);
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    manifest
        .getMainAttributes()
        .put(
            Attributes.Name.CLASS_PATH,
            Arrays.stream(NodeProcess.classPath().split(File.pathSeparator))
                .filter(entry -> !entry.isBlank())
                .map(entry -> Path.of(entry).toAbsolutePath().toUri().toString())
                .collect(Collectors.joining(" ")));
    try (OutputStream out = Files.newOutputStream(lib.resolve("classpath.jar"));
        JarOutputStream jar = new JarOutputStream(out, manifest)) {
      jar.flush();
    }
    return new LauncherDistribution(launcher);
  }

  /** The home of the JDK this test runs on, which the launcher's jdk.sh takes as JAVA_HOME. */
  static Path javaHome() {
    return Path.of(ProcessHandle.current().info().command().orElseThrow())
        .toAbsolutePath()
        .getParent()
        .getParent();
  }

  /** The repository: the first folder up from the module's that holds the launcher. */
  private static Path repositoryRoot() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("deploy/image/dist/rubin-orderer"))) {
        return dir;
      }
    }
    throw new IllegalStateException(
        "no deploy/image/dist/rubin-orderer above " + Path.of("").toAbsolutePath());
  }
}
