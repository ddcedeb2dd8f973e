package io.rubinbft.orderer.config;

/** The network the replicas speak among themselves (rdma-net providers). */
public enum ClusterTransport {
  /** java.nio sockets: works everywhere, the default. */
  TCP,
  /** Shared-memory verbs emulation: replicas on one host. */
  SHM,
  /** RDMA verbs through rdma-core: needs an RDMA device. */
  RDMA,
  /**
   * RDMA verbs through DiSNI (com.ibm.disni), for users who run it: needs an RDMA device and the
   * user's libdisni, which no package registry ships.
   */
  DISNI
}
