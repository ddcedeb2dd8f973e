package io.rubinbft.orderer.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * How this node reaches the other consenters.
 *
 * @param transport the rdma-net provider
 * @param listenHost the address replicas listen on
 * @param listenPort the port, or empty for the port in this node's consenter-mapping entry
 * @param certificate the certificate this node authenticates with to other replicas
 * @param privateKey its key
 * @param shmDirectory where the shared-memory transport keeps its mapped files
 * @param rdma the RDMA device, port and GID index the {@code rdma} transport uses
 * @param replicationPullTimeout how long a source may take to send the next block while this node
 *     pulls blocks (Fabric's {@code ReplicationPullTimeout}); empty for the puller's default
 * @param replicationRetryTimeout the longest pause before a failed source is asked again (Fabric's
 *     {@code ReplicationRetryTimeout}); empty for the puller's default
 */
public record ClusterSettings(
    ClusterTransport transport,
    String listenHost,
    OptionalInt listenPort,
    Path certificate,
    Path privateKey,
    Path shmDirectory,
    RdmaSettings rdma,
    Optional<Duration> replicationPullTimeout,
    Optional<Duration> replicationRetryTimeout) {}
