package io.rubinbft.orderer.cluster;

import io.rubinbft.net.ChannelConfig;
import io.rubinbft.net.disni.DisniVerbsDevice;
import io.rubinbft.net.rdma.FfmVerbsDevice;
import io.rubinbft.net.rdma.RdmaOptions;
import io.rubinbft.net.shm.ShmOptions;
import io.rubinbft.net.shm.ShmVerbsDevice;
import io.rubinbft.net.tcp.TcpTransport;
import io.rubinbft.net.transport.Transport;
import io.rubinbft.net.verbs.VerbsDevice;
import io.rubinbft.net.verbs.VerbsException;
import io.rubinbft.net.verbs.provider.VerbsTransport;
import io.rubinbft.orderer.config.ClusterSettings;
import io.rubinbft.orderer.config.ConfigException;
import io.rubinbft.orderer.config.RdmaSettings;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;

/** Opens the rdma-net transport that {@code General.Cluster.Transport} names. */
public final class ClusterTransports {

  /**
   * Channels one verbs node (shm or rdma) can hold at once: one per peer and direction, plus
   * handshakes and reconnects in progress, for clusters of up to about 60 consenters. The
   * completion queues are sized for this many channels' slots (8 192 entries with the default
   * rings: within Soft-RoCE's and any RDMA NIC's limit; shm keeps completions in the rings, so
   * there this costs no memory); a channel beyond it is refused at connect.
   */
  static final int VERBS_MAX_CHANNELS = 128;

  /** Sends up to this size are copied at post time, as an RDMA NIC's inline sends are. */
  static final int SHM_MAX_INLINE_BYTES = 256;

  /**
   * Inline sends on RDMA: every device grants 64 bytes (Soft-RoCE and ConnectX grant more, but a
   * queue pair asking for more than its device has is refused), and a credit frame (48 bytes) fits.
   */
  static final int RDMA_MAX_INLINE_BYTES = 64;

  private ClusterTransports() {}

  /**
   * Longest park of an idle DiSNI poller: DiSNI cannot wait on its completion channel together with
   * anything else (rdma-net/RDMA.md), so an idle network thread has nothing to block on and parks
   * and looks again. 100 us (rdma-net's default, for latency benchmarks) lets idle polling nodes
   * take whole cores (bench/journal/2026-11-21-07-orderer-quiet-after-tuning.md, measured with
   * shm's polling); 1 ms costs little and adds at most 1 ms to the first message after a quiet
   * spell (a busy thread never parks that long).
   */
  private static final long DISNI_MAX_PARK_NANOS = 1_000_000;

  /**
   * rdma-net's default for shm and rdma, whose idle pollers sleep in the kernel (shm's doorbell,
   * rdma's completion channel) 50 us after their last event and are woken by the next: parks happen
   * only within those 50 us.
   */
  private static final long SLEEPING_MAX_PARK_NANOS = 100_000;

  /**
   * The transport {@code cluster} names, for channels of {@code channels}' sizes.
   *
   * @throws ConfigException when rdma or disni is chosen and this host cannot run it: the message
   *     says what is missing (library, device, port, GID entry) and, where RDMA is missing
   *     altogether, which transport to choose instead
   */
  public static Transport open(ClusterSettings cluster, ChannelConfig channels) throws IOException {
    return switch (cluster.transport()) {
      case TCP -> TcpTransport.open();
      case SHM ->
          verbs(
              ShmVerbsDevice.open(ShmOptions.defaults(cluster.shmDirectory())),
              channels,
              SHM_MAX_INLINE_BYTES,
              SLEEPING_MAX_PARK_NANOS);
      case RDMA ->
          verbs(openRdma(cluster.rdma()), channels, RDMA_MAX_INLINE_BYTES, SLEEPING_MAX_PARK_NANOS);
      case DISNI ->
          verbs(
              openDisni(cluster.listenHost()),
              channels,
              RDMA_MAX_INLINE_BYTES,
              DISNI_MAX_PARK_NANOS);
    };
  }

  private static VerbsTransport verbs(
      VerbsDevice device, ChannelConfig channels, int maxInline, long maxParkNanos)
      throws VerbsException {
    try {
      return VerbsTransport.open(
          device,
          VERBS_MAX_CHANNELS * (channels.sendSlots() + channels.receiveSlots()),
          maxInline,
          maxParkNanos);
    } catch (VerbsException | RuntimeException e) {
      device.close();
      throw e;
    }
  }

  /** DiSNI opens the device that holds an address: the listen address must be that one. */
  private static DisniVerbsDevice openDisni(String listenHost) {
    InetAddress address;
    try {
      address = InetAddress.getByName(listenHost);
    } catch (UnknownHostException e) {
      throw new ConfigException(
          "General.Cluster.ListenAddress is '" + listenHost + "' but does not resolve", e);
    }
    if (address.isAnyLocalAddress()) {
      throw new ConfigException(
          "General.Cluster.ListenAddress is '"
              + listenHost
              + "' but the disni transport opens the RDMA device holding the listen address:"
              + " give the RDMA interface's IP address");
    }
    try {
      return DisniVerbsDevice.open(address);
    } catch (VerbsException e) {
      throw new ConfigException(
          "General.Cluster.Transport is 'disni' but it cannot start: " + e.getMessage(), e);
    }
  }

  private static FfmVerbsDevice openRdma(RdmaSettings rdma) {
    RdmaOptions options = RdmaOptions.defaults().withPort(rdma.port());
    options = rdma.device().map(options::withDeviceName).orElse(options);
    if (rdma.gidIndex().isPresent()) {
      options = options.withGidIndex(rdma.gidIndex().getAsInt());
    }
    try {
      return FfmVerbsDevice.open(options);
    } catch (VerbsException e) {
      throw new ConfigException(
          "General.Cluster.Transport is 'rdma' but it cannot start: " + e.getMessage(), e);
    }
  }
}
