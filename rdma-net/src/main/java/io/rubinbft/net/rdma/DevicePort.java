package io.rubinbft.net.rdma;

import io.rubinbft.net.verbs.VerbsException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * The port of the opened device the replicas use, checked against what the kernel shows under
 * {@code /sys/class/infiniband/DEVICE/ports/N} when the device opens: the port exists and is
 * ACTIVE, and a chosen GID index holds a GID. A wrong port or index thus fails at start, naming
 * what the port has, instead of at the first connect. rdma_cm chooses the port and GID of each
 * connection from its address; {@link FfmVerbsDevice} compares them with these.
 */
final class DevicePort {

  static final int GID_BYTES = 16;
  private static final String ACTIVE = "ACTIVE";

  private final String device;
  private final int number;
  private final byte @Nullable [] gid;

  private DevicePort(String device, int number, byte @Nullable [] gid) {
    this.device = device;
    this.number = number;
    this.gid = gid;
  }

  /**
   * Checks port {@code number} of {@code device} under {@code sysfs} (the directory of all devices)
   * and reads GID {@code gidIndex} if one is chosen. Without the device's directory (sysfs not
   * mounted in a container) only a chosen GID index is an error: it cannot be checked.
   */
  static DevicePort check(Path sysfs, String device, int number, OptionalInt gidIndex)
      throws VerbsException {
    Path deviceDir = sysfs.resolve(device);
    Path portDir = deviceDir.resolve("ports").resolve(Integer.toString(number));
    if (!Files.isDirectory(deviceDir)) {
      if (gidIndex.isPresent()) {
        throw new VerbsException(
            "cannot check GID index "
                + gidIndex.getAsInt()
                + ": "
                + deviceDir
                + " does not exist (mount sysfs, or leave the GID index to rdma_cm)");
      }
      return new DevicePort(device, number, null);
    }
    if (!Files.isDirectory(portDir)) {
      throw new VerbsException(
          "RDMA device "
              + device
              + " has no port "
              + number
              + "; its ports are "
              + ports(deviceDir));
    }
    String state = read(portDir.resolve("state"));
    if (!state.endsWith(ACTIVE)) {
      throw new VerbsException(
          "port "
              + number
              + " of "
              + device
              + " is "
              + state
              + ", not "
              + ACTIVE
              + ": bring its network interface up (rdma link show names it); on InfiniBand a"
              + " subnet manager must run");
    }
    if (gidIndex.isEmpty()) {
      return new DevicePort(device, number, null);
    }
    Optional<byte[]> gid = gid(portDir, gidIndex.getAsInt());
    if (gid.isEmpty()) {
      throw new VerbsException(
          "GID index "
              + gidIndex.getAsInt()
              + " of "
              + device
              + " port "
              + number
              + " holds no GID; the entries that do: "
              + gidTable(portDir)
              + " (RoCE: choose the RoCE v2 entry of the replicas' IP address)");
    }
    return new DevicePort(device, number, gid.get());
  }

  int number() {
    return number;
  }

  /** Whether {@code sourceGid}, the GID rdma_cm chose for a connection, is the chosen one. */
  boolean acceptsGid(byte[] sourceGid) {
    return gid == null || Arrays.equals(gid, sourceGid);
  }

  String describe() {
    return device + " port " + number;
  }

  /** A GID as sysfs and {@code show_gids} print it: eight groups of four hex digits. */
  static String format(byte[] gid) {
    String hex = HexFormat.of().formatHex(gid);
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < hex.length(); i += 4) {
      text.append(i == 0 ? "" : ":").append(hex, i, i + 4);
    }
    return text.toString();
  }

  private static Optional<byte[]> gid(Path portDir, int index) throws VerbsException {
    Path file = portDir.resolve("gids").resolve(Integer.toString(index));
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    byte[] gid = HexFormat.of().parseHex(read(file).replace(":", ""));
    if (gid.length != GID_BYTES) {
      throw new VerbsException(file + " does not hold a 16-byte GID");
    }
    return allZero(gid) ? Optional.empty() : Optional.of(gid);
  }

  private static boolean allZero(byte[] bytes) {
    for (byte b : bytes) {
      if (b != 0) {
        return false;
      }
    }
    return true;
  }

  /** "index GID (type)" for every entry of the table that holds a GID. */
  private static List<String> gidTable(Path portDir) throws VerbsException {
    List<String> entries = new ArrayList<>();
    for (String index : list(portDir.resolve("gids"))) {
      Optional<byte[]> gid = gid(portDir, Integer.parseInt(index));
      if (gid.isPresent()) {
        entries.add(index + " " + format(gid.get()) + " (" + gidType(portDir, index) + ")");
      }
    }
    return entries;
  }

  private static String gidType(Path portDir, String index) {
    try {
      return read(portDir.resolve("gid_attrs").resolve("types").resolve(index));
    } catch (VerbsException e) {
      return "type unknown";
    }
  }

  private static List<String> ports(Path deviceDir) throws VerbsException {
    return list(deviceDir.resolve("ports"));
  }

  /** Numeric entries of {@code dir}, in numeric order. */
  private static List<String> list(Path dir) throws VerbsException {
    try (Stream<Path> entries = Files.list(dir)) {
      return entries
          .map(path -> path.getFileName().toString())
          .filter(name -> name.chars().allMatch(Character::isDigit))
          .sorted((a, b) -> Integer.compare(Integer.parseInt(a), Integer.parseInt(b)))
          .toList();
    } catch (IOException e) {
      throw new VerbsException("cannot list " + dir, e);
    }
  }

  private static String read(Path file) throws VerbsException {
    try {
      return Files.readString(file, StandardCharsets.US_ASCII).strip();
    } catch (IOException e) {
      throw new VerbsException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }
}
