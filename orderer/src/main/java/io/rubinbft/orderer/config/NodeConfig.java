package io.rubinbft.orderer.config;

import java.nio.file.Path;
import java.time.Duration;

/**
 * A node's whole configuration, validated. Built by {@link NodeConfigLoader}.
 *
 * @param listen the Broadcast/Deliver gRPC address
 * @param tls the gRPC listener's TLS
 * @param mspDirectory the local MSP folder (signcerts, keystore, cacerts...)
 * @param mspId the local MSP id; must be an orderer org of the channels this node joins
 * @param authenticationTimeWindow how far a Deliver request's timestamp may be from now
 * @param maxReceiveMessageBytes the largest gRPC message accepted
 * @param maxSendMessageBytes the largest gRPC message sent
 * @param cluster how replicas talk to each other
 * @param ledgerDirectory where RocksDB keeps the blocks
 * @param walDirectory where the consensus write-ahead log lives
 * @param admin the channel participation API
 * @param operations the operations endpoint
 */
public record NodeConfig(
    HostPort listen,
    TlsSettings tls,
    Path mspDirectory,
    String mspId,
    Duration authenticationTimeWindow,
    long maxReceiveMessageBytes,
    long maxSendMessageBytes,
    ClusterSettings cluster,
    Path ledgerDirectory,
    Path walDirectory,
    AdminSettings admin,
    OperationsSettings operations) {}
