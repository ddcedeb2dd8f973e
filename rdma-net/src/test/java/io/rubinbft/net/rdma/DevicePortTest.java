package io.rubinbft.net.rdma;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rubinbft.net.verbs.VerbsException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.OptionalInt;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The port and GID checks at open, against a sysfs tree laid out as the kernel shows Soft-RoCE on
 * an interface with 192.0.2.1: GID 0 the link-local address, 1 the IPv4-mapped one, the rest of the
 * table zero.
 */
class DevicePortTest {

  private static final String LINK_LOCAL = "fe80:0000:0000:0000:5054:00ff:fe12:3456";
  private static final String IPV4_MAPPED = "0000:0000:0000:0000:0000:ffff:c000:0201";
  private static final String ZERO = "0000:0000:0000:0000:0000:0000:0000:0000";

  @TempDir Path sysfs;

  @BeforeEach
  void softRoce() throws IOException {
    Path port = Files.createDirectories(sysfs.resolve("rxe0/ports/1"));
    Files.writeString(port.resolve("state"), "4: ACTIVE\n");
    Files.createDirectories(port.resolve("gids"));
    Files.createDirectories(port.resolve("gid_attrs/types"));
    String[] gids = {LINK_LOCAL, IPV4_MAPPED, ZERO, ZERO};
    for (int i = 0; i < gids.length; i++) {
      Files.writeString(port.resolve("gids/" + i), gids[i] + "\n");
      if (!gids[i].equals(ZERO)) {
        Files.writeString(port.resolve("gid_attrs/types/" + i), "RoCE v2\n");
      }
    }
  }

  @Test
  void acceptsAnActivePortAndAnyGidWhenNoIndexIsChosen() throws VerbsException {
    DevicePort port = DevicePort.check(sysfs, "rxe0", 1, OptionalInt.empty());
    assertThat(port.number()).isEqualTo(1);
    assertThat(port.acceptsGid(gid(LINK_LOCAL))).isTrue();
    assertThat(port.acceptsGid(gid(IPV4_MAPPED))).isTrue();
  }

  @Test
  void acceptsOnlyTheChosenEntrysGid() throws VerbsException {
    DevicePort port = DevicePort.check(sysfs, "rxe0", 1, OptionalInt.of(1));
    assertThat(port.acceptsGid(gid(IPV4_MAPPED))).isTrue();
    assertThat(port.acceptsGid(gid(LINK_LOCAL))).isFalse();
  }

  @Test
  void refusesAPortTheDeviceDoesNotHave() {
    assertThatThrownBy(() -> DevicePort.check(sysfs, "rxe0", 2, OptionalInt.empty()))
        .isInstanceOf(VerbsException.class)
        .hasMessage("RDMA device rxe0 has no port 2; its ports are [1]");
  }

  @Test
  void refusesAPortThatIsNotActive() throws IOException {
    Files.writeString(sysfs.resolve("rxe0/ports/1/state"), "1: DOWN\n");
    assertThatThrownBy(() -> DevicePort.check(sysfs, "rxe0", 1, OptionalInt.empty()))
        .isInstanceOf(VerbsException.class)
        .hasMessageStartingWith(
            "port 1 of rxe0 is 1: DOWN, not ACTIVE: bring its network interface");
  }

  @Test
  void refusesAnEmptyGidEntryListingTheEntriesThatHoldOne() {
    assertThatThrownBy(() -> DevicePort.check(sysfs, "rxe0", 1, OptionalInt.of(3)))
        .isInstanceOf(VerbsException.class)
        .hasMessage(
            "GID index 3 of rxe0 port 1 holds no GID; the entries that do: [0 "
                + LINK_LOCAL
                + " (RoCE v2), 1 "
                + IPV4_MAPPED
                + " (RoCE v2)] (RoCE: choose the RoCE v2 entry of the replicas' IP address)");
    assertThatThrownBy(() -> DevicePort.check(sysfs, "rxe0", 1, OptionalInt.of(16)))
        .hasMessageStartingWith("GID index 16 of rxe0 port 1 holds no GID");
  }

  @Test
  void withoutTheDevicesSysfsDirectoryOnlyAChosenGidIndexIsAnError() throws VerbsException {
    assertThat(DevicePort.check(sysfs, "mlx5_0", 1, OptionalInt.empty()).number()).isEqualTo(1);
    assertThatThrownBy(() -> DevicePort.check(sysfs, "mlx5_0", 1, OptionalInt.of(3)))
        .isInstanceOf(VerbsException.class)
        .hasMessageStartingWith("cannot check GID index 3: " + sysfs.resolve("mlx5_0"));
  }

  @Test
  void formatsGidsAsSysfsPrintsThem() {
    assertThat(DevicePort.format(gid(IPV4_MAPPED))).isEqualTo(IPV4_MAPPED);
  }

  private static byte[] gid(String text) {
    return HexFormat.of().parseHex(text.replace(":", ""));
  }
}
