package io.rubinbft.net.rdma;

/**
 * How the rdma-core binding opens a device and sets up its connections.
 *
 * @param deviceName the RDMA device to use (as {@code ibv_devices} lists it, e.g. {@code mlx5_0} or
 *     {@code rxe0}); empty for the first device. rdma_cm picks the device from the address, so this
 *     must be the device whose network interface carries the replicas' addresses.
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
    int rnrRetryCount,
    int transportRetryCount,
    int resolveTimeoutMillis,
    int maxQueuePairs,
    String verbsLibrary,
    String connectionManagerLibrary) {

  /** The layer above always keeps receives posted, so a few RNR retries only ride out a race. */
  public static final int DEFAULT_RNR_RETRY_COUNT = 3;

  public RdmaOptions {
    requireRange("rnrRetryCount", rnrRetryCount, 0, 6);
    requireRange("transportRetryCount", transportRetryCount, 0, 7);
    requireRange("resolveTimeoutMillis", resolveTimeoutMillis, 1, 60_000);
    requireRange("maxQueuePairs", maxQueuePairs, 1, 65_536);
    if (verbsLibrary.isEmpty() || connectionManagerLibrary.isEmpty()) {
      throw new IllegalArgumentException("library names must not be empty");
    }
  }

  /** The first device, rdma-core's libraries by their Debian sonames, and moderate retries. */
  public static RdmaOptions defaults() {
    return new RdmaOptions(
        "", DEFAULT_RNR_RETRY_COUNT, 7, 2_000, 1_024, "libibverbs.so.1", "librdmacm.so.1");
  }

  public RdmaOptions withDeviceName(String name) {
    return new RdmaOptions(
        name,
        rnrRetryCount,
        transportRetryCount,
        resolveTimeoutMillis,
        maxQueuePairs,
        verbsLibrary,
        connectionManagerLibrary);
  }

  public RdmaOptions withRnrRetryCount(int count) {
    return new RdmaOptions(
        deviceName,
        count,
        transportRetryCount,
        resolveTimeoutMillis,
        maxQueuePairs,
        verbsLibrary,
        connectionManagerLibrary);
  }

  public RdmaOptions withLibraries(String verbs, String connectionManager) {
    return new RdmaOptions(
        deviceName,
        rnrRetryCount,
        transportRetryCount,
        resolveTimeoutMillis,
        maxQueuePairs,
        verbs,
        connectionManager);
  }

  private static void requireRange(String name, int value, int min, int max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          name + " is " + value + " but must be in [" + min + ", " + max + "]");
    }
  }
}
