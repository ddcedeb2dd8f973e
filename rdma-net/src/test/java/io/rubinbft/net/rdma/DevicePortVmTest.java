package io.rubinbft.net.rdma;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rubinbft.net.verbs.QueuePairSpec;
import io.rubinbft.net.verbs.VerbsException;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Port and GID index on a real (Soft-RoCE) device: the GID table entry holding the guest's RDMA
 * address carries connections; any other entry is refused as soon as the device binds that address,
 * which also checks where rdma_cm keeps the port and source GID in its id.
 */
@Tag("rdma-vm")
class DevicePortVmTest {

  private static final int GID_TABLE_ENTRIES = 16;

  @Test
  void refusesAPortTheDeviceDoesNotHave() throws VerbsException {
    try (FfmVerbsDevice device = SoftRoce.openDevice(RdmaOptions.defaults())) {
      assertThatThrownBy(
              () ->
                  FfmVerbsDevice.open(
                      RdmaOptions.defaults().withDeviceName(device.name()).withPort(2)))
          .isInstanceOf(VerbsException.class)
          .hasMessage("RDMA device " + device.name() + " has no port 2; its ports are [1]");
    }
  }

  @Test
  void connectsThroughTheGidIndexOfTheAddress() throws IOException {
    String name = deviceName();
    int index = gidIndexOf(name, SoftRoce.anyPort().getAddress());
    try (FfmVerbsDevice device =
            SoftRoce.openDevice(RdmaOptions.defaults().withDeviceName(name).withGidIndex(index));
        ConnectedPair pair = ConnectedPair.connect(device, new byte[] {1}, new byte[] {2})) {
      assertThat(pair.client.queuePair().number()).isNotEqualTo(pair.server.queuePair().number());
    }
  }

  @Test
  void refusesToListenWhereRdmaCmWouldUseAnotherGid() throws IOException {
    String name = deviceName();
    int addressIndex = gidIndexOf(name, SoftRoce.anyPort().getAddress());
    int other =
        IntStream.range(0, GID_TABLE_ENTRIES)
            .filter(i -> i != addressIndex && gid(name, i).isPresent())
            .findFirst()
            .orElseThrow();
    try (FfmVerbsDevice device =
        SoftRoce.openDevice(RdmaOptions.defaults().withDeviceName(name).withGidIndex(other))) {
      QueuePairSpec spec =
          new QueuePairSpec(
              4, 4, 0, device.createCompletionQueue(8), device.createCompletionQueue(8));
      assertThatThrownBy(() -> device.listen(SoftRoce.anyPort(), spec))
          .isInstanceOf(VerbsException.class)
          .hasMessageContaining(
              "uses source GID "
                  + gid(name, addressIndex).orElseThrow()
                  + ", not the one at GID index "
                  + other);
    }
  }

  private static String deviceName() throws VerbsException {
    try (FfmVerbsDevice device = SoftRoce.openDevice(RdmaOptions.defaults())) {
      return device.name();
    }
  }

  /** The entry holding {@code address} as RoCE writes an IPv4 address: ::ffff:a.b.c.d. */
  private static int gidIndexOf(String device, InetAddress address) {
    String mapped =
        DevicePort.format(
            HexFormat.of()
                .parseHex(
                    "00000000000000000000ffff" + HexFormat.of().formatHex(address.getAddress())));
    return IntStream.range(0, GID_TABLE_ENTRIES)
        .filter(i -> gid(device, i).filter(mapped::equals).isPresent())
        .findFirst()
        .orElseThrow(() -> new AssertionError("no GID entry of " + device + " holds " + mapped));
  }

  private static Optional<String> gid(String device, int index) {
    Path file = DeviceSelection.SYSFS_DEVICES.resolve(device + "/ports/1/gids/" + index);
    try {
      String text = Files.readString(file).strip();
      return text.replace("0", "").replace(":", "").isEmpty()
          ? Optional.empty()
          : Optional.of(text);
    } catch (IOException e) {
      return Optional.empty();
    }
  }
}
