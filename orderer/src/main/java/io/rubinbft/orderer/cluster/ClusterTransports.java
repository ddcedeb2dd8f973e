package io.rubinbft.orderer.cluster;

import io.rubinbft.net.ChannelConfig;
import io.rubinbft.net.shm.ShmOptions;
import io.rubinbft.net.shm.ShmVerbsDevice;
import io.rubinbft.net.tcp.TcpTransport;
import io.rubinbft.net.transport.Transport;
import io.rubinbft.net.verbs.provider.VerbsTransport;
import io.rubinbft.orderer.config.ClusterTransport;
import io.rubinbft.orderer.config.ConfigException;
import java.io.IOException;
import java.nio.file.Path;

/** Opens the rdma-net transport that {@code General.Cluster.Transport} names. */
public final class ClusterTransports {

  /**
   * Channels one shm node can hold at once: one per peer and direction, plus handshakes and
   * reconnects in progress, for clusters of up to about 60 consenters. The completion queues are
   * sized for this many channels' slots (shm keeps completions in the rings, so this costs no
   * memory; a channel beyond it is refused at connect).
   */
  static final int SHM_MAX_CHANNELS = 128;

  /** Sends up to this size are copied at post time, as an RDMA NIC's inline sends are. */
  static final int SHM_MAX_INLINE_BYTES = 256;

  private ClusterTransports() {}

  /**
   * Longest park of an idle shm poller: shm has no file descriptor to block on, so an idle network
   * thread parks and looks again. 100 us (rdma-net's default, for latency benchmarks) cost 4 idle
   * nodes both cores of a 2-core machine; 1 ms costs a few percent and adds at most 1 ms to the
   * first message after a quiet spell (a busy thread never parks that long).
   */
  private static final long SHM_MAX_PARK_NANOS = 1_000_000;

  /**
   * The transport for {@code transport}; {@code shmDirectory} is where the shm transport's
   * memory-mapped files live (shared by the nodes of one host).
   */
  public static Transport open(
      ClusterTransport transport, Path shmDirectory, ChannelConfig channels) throws IOException {
    return switch (transport) {
      case TCP -> TcpTransport.open();
      case SHM ->
          VerbsTransport.open(
              ShmVerbsDevice.open(ShmOptions.defaults(shmDirectory)),
              SHM_MAX_CHANNELS * (channels.sendSlots() + channels.receiveSlots()),
              SHM_MAX_INLINE_BYTES,
              SHM_MAX_PARK_NANOS);
      case RDMA ->
          throw new ConfigException(
              "General.Cluster.Transport is 'rdma' but the orderer node runs tcp and shm only so"
                  + " far (rdma-net's rdma provider is tested inside a Soft-RoCE guest, not yet in"
                  + " the node); choose tcp (any network) or shm (nodes on one host)");
    };
  }
}
