package io.rubinbft.net.rdma;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import io.rubinbft.net.verbs.VerbsException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Picks the RDMA device among those rdma_cm knows ({@code rdma_get_devices}), or explains why there
 * is none. Its contexts are rdma_cm's own, so queue pairs made through rdma_cm ids land on the
 * protection domain allocated here.
 */
record DeviceSelection(MemorySegment deviceList, MemorySegment context, String name) {

  /** Where the kernel shows its RDMA devices. */
  static final Path SYSFS_DEVICES = Path.of("/sys/class/infiniband");

  private static final long CONTEXT_DEVICE =
      VerbsLayouts.offset(VerbsLayouts.IBV_CONTEXT, "device");

  static DeviceSelection select(RdmaCore core, String wanted, Arena arena) throws VerbsException {
    MemorySegment count = arena.allocate(JAVA_INT);
    MemorySegment list;
    try {
      list = NativeCalls.callForPointer("rdma_get_devices", core.getDevices, count);
    } catch (VerbsException e) {
      throw new RdmaUnavailableException(noDevice(String.valueOf(e.getMessage())));
    }
    int devices = count.get(JAVA_INT, 0);
    MemorySegment contexts = list.reinterpret(ADDRESS.byteSize() * devices);
    List<String> names = new ArrayList<>();
    for (int i = 0; i < devices; i++) {
      MemorySegment context =
          contexts.getAtIndex(ADDRESS, i).reinterpret(VerbsLayouts.IBV_CONTEXT.byteSize());
      String name =
          NativeCalls.string(
              (MemorySegment)
                  NativeCalls.invoke(core.getDeviceName, context.get(ADDRESS, CONTEXT_DEVICE)));
      if (wanted.isEmpty() || wanted.equals(name)) {
        return new DeviceSelection(list, context, name);
      }
      names.add(name);
    }
    NativeCalls.invoke(core.freeDevices, list);
    if (names.isEmpty()) {
      throw new RdmaUnavailableException(noDevice("rdma_get_devices lists none"));
    }
    throw new VerbsException("RDMA device " + wanted + " not found; this host has " + names);
  }

  /** Says what the kernel shows, and how to get a Soft-RoCE device where there is no RDMA NIC. */
  private static String noDevice(String detail) {
    return "no RDMA device found ("
        + detail
        + "; "
        + sysfsDevices()
        + "); on a host without an RDMA NIC, Soft-RoCE provides one: modprobe rdma_rxe && rdma"
        + " link add rxe0 type rxe netdev <interface>";
  }

  private static String sysfsDevices() {
    if (!Files.isDirectory(SYSFS_DEVICES)) {
      return SYSFS_DEVICES + " does not exist: the kernel has no RDMA support loaded";
    }
    try (Stream<Path> entries = Files.list(SYSFS_DEVICES)) {
      List<String> names = entries.map(p -> p.getFileName().toString()).sorted().toList();
      return names.isEmpty()
          ? SYSFS_DEVICES + " is empty: no RDMA NIC and no rxe device"
          : "the kernel has " + names + " but rdma_cm cannot use them (is rdma_ucm loaded?)";
    } catch (IOException e) {
      return "cannot list " + SYSFS_DEVICES + ": " + e.getMessage();
    }
  }
}
