package io.rubinbft.orderer.operations;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The build's version, in the shape of Fabric's /version answer.
 *
 * @param version the Maven project version
 * @param commitSha the git commit the build came from, or "unknown"
 */
public record VersionInfo(String version, String commitSha) {

  /** Reads the build-time properties filtered into the jar. */
  public static VersionInfo ofThisBuild() {
    Properties properties = new Properties();
    try (InputStream in =
        VersionInfo.class.getResourceAsStream("/rubin-orderer-version.properties")) {
      if (in == null) {
        throw new IllegalStateException(
            "rubin-orderer-version.properties is missing from the build");
      }
      properties.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new VersionInfo(
        properties.getProperty("version"), properties.getProperty("commit", "unknown"));
  }
}
