package io.rubinbft.net.rdma;

import java.util.OptionalInt;
import java.util.function.Consumer;

/**
 * How the rdma-core binding opens a device and sets up its connections.
 *
 * @param deviceName the RDMA device to use (as {@code ibv_devices} lists it, e.g. {@code mlx5_0} or
 *     {@code rxe0}); empty for the first device. rdma_cm picks the device from the address, so this
 *     must be the device whose network interface carries the replicas' addresses.
 * @param port the device port the replicas' addresses are on (1 on a single-port NIC and on
 *     Soft-RoCE); a connection rdma_cm routes through another port is refused
 * @param gidIndex the entry of the port's GID table the replicas' traffic must use, or empty to
 *     take whichever rdma_cm derives from the address (RoCE: the entry holding the interface's IP
 *     address, of the port's default RoCE mode; InfiniBand: the port GID). When set, opening fails
 *     unless the entry holds a GID, and a connection whose source GID is not that entry's is
 *     refused: it pins the interface and address the operator meant.
 * @param rnrRetryCount how often the peer's device retries a send that found no receive posted
 *     before failing it with receiver-not-ready (0 to 6; 7 would mean forever and hide the bug)
 * @param transportRetryCount how often a lost packet is retransmitted before the pair fails (0-7)
 * @param resolveTimeoutMillis bound on resolving a peer's address and route when connecting
 * @param maxQueuePairs most queue pairs (connections, pending or established) the device holds
 * @param verbsLibrary the verbs library to load, a name for the dynamic linker or a path
 * @param connectionManagerLibrary the rdma_cm library to load, a name or a path
 */
public record RdmaOptions(
    String deviceName,
    int port,
    OptionalInt gidIndex,
    int rnrRetryCount,
    int transportRetryCount,
    int resolveTimeoutMillis,
    int maxQueuePairs,
    String verbsLibrary,
    String connectionManagerLibrary) {

  /** The layer above always keeps receives posted, so a few RNR retries only ride out a race. */
  public static final int DEFAULT_RNR_RETRY_COUNT = 3;

  /** The first (on a single-port NIC and on Soft-RoCE, the only) port of a device. */
  public static final int DEFAULT_PORT = 1;

  public RdmaOptions {
    requireRange("port", port, 1, 255);
    if (gidIndex.isPresent()) {
      requireRange("gidIndex", gidIndex.getAsInt(), 0, 65_535);
    }
    requireRange("rnrRetryCount", rnrRetryCount, 0, 6);
    requireRange("transportRetryCount", transportRetryCount, 0, 7);
    requireRange("resolveTimeoutMillis", resolveTimeoutMillis, 1, 60_000);
    requireRange("maxQueuePairs", maxQueuePairs, 1, 65_536);
    if (verbsLibrary.isEmpty() || connectionManagerLibrary.isEmpty()) {
      throw new IllegalArgumentException("library names must not be empty");
    }
  }

  /**
   * The first device, its port 1, the GID rdma_cm derives from the address, rdma-core's libraries
   * by their Debian sonames, and moderate retries: what a single-port RoCE NIC and Soft-RoCE need.
   */
  public static RdmaOptions defaults() {
    return new RdmaOptions(
        "",
        DEFAULT_PORT,
        OptionalInt.empty(),
        DEFAULT_RNR_RETRY_COUNT,
        7,
        2_000,
        1_024,
        "libibverbs.so.1",
        "librdmacm.so.1");
  }

  public RdmaOptions withDeviceName(String name) {
    return with(copy -> copy.deviceName = name);
  }

  public RdmaOptions withPort(int number) {
    return with(copy -> copy.port = number);
  }

  public RdmaOptions withGidIndex(int index) {
    return with(copy -> copy.gidIndex = OptionalInt.of(index));
  }

  public RdmaOptions withRnrRetryCount(int count) {
    return with(copy -> copy.rnrRetryCount = count);
  }

  public RdmaOptions withLibraries(String verbs, String connectionManager) {
    return with(
        copy -> {
          copy.verbsLibrary = verbs;
          copy.connectionManagerLibrary = connectionManager;
        });
  }

  /** These options with {@code change} applied (and checked again by the constructor). */
  private RdmaOptions with(Consumer<Copy> change) {
    Copy copy = new Copy(this);
    change.accept(copy);
    return copy.options();
  }

  /** A mutable copy of the components, so each wither names only what it changes. */
  private static final class Copy {
    private String deviceName;
    private int port;
    private OptionalInt gidIndex;
    private int rnrRetryCount;
    private final int transportRetryCount;
    private final int resolveTimeoutMillis;
    private final int maxQueuePairs;
    private String verbsLibrary;
    private String connectionManagerLibrary;

    private Copy(RdmaOptions options) {
      this.deviceName = options.deviceName;
      this.port = options.port;
      this.gidIndex = options.gidIndex;
      this.rnrRetryCount = options.rnrRetryCount;
      this.transportRetryCount = options.transportRetryCount;
      this.resolveTimeoutMillis = options.resolveTimeoutMillis;
      this.maxQueuePairs = options.maxQueuePairs;
      this.verbsLibrary = options.verbsLibrary;
      this.connectionManagerLibrary = options.connectionManagerLibrary;
    }

    private RdmaOptions options() {
      return new RdmaOptions(
          deviceName,
          port,
          gidIndex,
          rnrRetryCount,
          transportRetryCount,
          resolveTimeoutMillis,
          maxQueuePairs,
          verbsLibrary,
          connectionManagerLibrary);
    }
  }

  private static void requireRange(String name, int value, int min, int max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          name + " is " + value + " but must be in [" + min + ", " + max + "]");
    }
  }
}
