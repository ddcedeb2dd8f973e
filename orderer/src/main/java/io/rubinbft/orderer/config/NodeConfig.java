package io.rubinbft.orderer.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A node's whole configuration, validated. Built by {@link NodeConfigLoader}.
 *
 * @param listen the Broadcast/Deliver gRPC address
 * @param tls the gRPC listener's TLS
 * @param mspDirectory the local MSP folder (signcerts, keystore, cacerts...)
 * @param mspId the local MSP id; must be an orderer org of the channels this node joins
 * @param authenticationTimeWindow how far a Deliver request's timestamp may be from now
 * @param maxReceiveMessageBytes the largest gRPC message accepted
 * @param maxSendMessageBytes Fabric's MaxSendMsgSize: the largest gRPC message the node sends
 * @param keepalive gRPC keepalive of the Broadcast/Deliver listener
 * @param connections caps on the Broadcast/Deliver listener's connections
 * @param expirationChecks whether Broadcast and Deliver refuse clients whose certificate expired
 *     (Fabric's {@code General.Authentication.NoExpirationChecks} inverted)
 * @param throttling Fabric's per-client Broadcast throttling
 * @param cluster how replicas talk to each other
 * @param ledgerDirectory where RocksDB keeps the blocks
 * @param walDirectory where the consensus write-ahead log lives
 * @param admin the channel participation API
 * @param operations the operations endpoint
 * @param warnings what the operator should know about the configuration but does not stop the node:
 *     Fabric settings with no meaning here, ORDERER_... variables that name no setting
 */
public record NodeConfig(
    HostPort listen,
    TlsSettings tls,
    Path mspDirectory,
    String mspId,
    Duration authenticationTimeWindow,
    long maxReceiveMessageBytes,
    long maxSendMessageBytes,
    KeepaliveSettings keepalive,
    ConnectionLimits connections,
    boolean expirationChecks,
    ThrottlingSettings throttling,
    ClusterSettings cluster,
    Path ledgerDirectory,
    Path walDirectory,
    AdminSettings admin,
    OperationsSettings operations,
    List<String> warnings) {

  public NodeConfig {
    warnings = List.copyOf(warnings);
  }
}
