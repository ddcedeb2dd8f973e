package io.rubinbft.orderer.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Finds orderer.yaml as Fabric's orderer does when no file is named: {@code orderer.yaml}, then
 * {@code orderer.yml}, in {@code FABRIC_CFG_PATH} (one folder), then the working folder, then
 * {@code /etc/hyperledger/fabric} (Fabric's {@code viperutil.ConfigPaths}).
 */
public final class ConfigFileLocator {

  static final String FABRIC_CFG_PATH = "FABRIC_CFG_PATH";
  private static final List<String> NAMES = List.of("orderer.yaml", "orderer.yml");

  private ConfigFileLocator() {}

  /**
   * The file to load. When none of the folders holds one: with {@code FABRIC_CFG_PATH} set, an
   * error naming the folders searched (the operator pointed at a file that is not there); without
   * it, {@code orderer.yaml} in the working folder, which then means the embedded defaults.
   *
   * @throws ConfigException when FABRIC_CFG_PATH is set and no folder holds the file
   */
  public static Path locate(Map<String, String> environment, Path workingFolder, Path etcFolder) {
    List<Path> folders = new ArrayList<>();
    String configPath = environment.get(FABRIC_CFG_PATH);
    boolean pointed = configPath != null && !configPath.isBlank();
    if (configPath != null && pointed) {
      folders.add(workingFolder.resolve(configPath.trim()));
    }
    folders.add(workingFolder);
    folders.add(etcFolder);
    for (Path folder : folders) {
      for (String name : NAMES) {
        Path file = folder.resolve(name);
        if (Files.isRegularFile(file)) {
          return file;
        }
      }
    }
    if (pointed) {
      throw new ConfigException(
          "no orderer.yaml or orderer.yml in "
              + FABRIC_CFG_PATH
              + " ("
              + folders.getFirst()
              + "), in the working folder ("
              + workingFolder
              + ") or in "
              + etcFolder);
    }
    return workingFolder.resolve(NAMES.getFirst());
  }

  /** {@link #locate} with the process's working folder and Fabric's official path. */
  public static Path locate(Map<String, String> environment) {
    return locate(environment, Path.of("").toAbsolutePath(), Path.of("/etc/hyperledger/fabric"));
  }
}
