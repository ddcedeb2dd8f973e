package io.rubinbft.orderer.channel;

import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.hyperledger.fabric.protos.common.Config;
import org.hyperledger.fabric.protos.orderer.smartbft.Options;

/**
 * A BFT channel's configuration as one config block (the genesis block or a later CONFIG block)
 * sets it, validated by {@link ConfigBlockReader}.
 *
 * @param channelId the channel id from the config envelope's channel header
 * @param blockNumber the number of the config block this was read from (the last config index of
 *     the blocks that follow it)
 * @param sequence {@code Config.sequence}: 0 at genesis, +1 per config update
 * @param config the whole config tree, for building MSPs and policies
 * @param capabilities channel, orderer and application capabilities
 * @param consensusState normal or maintenance ({@code ConsensusType.state}); the type is BFT
 * @param consenters the ConsenterMapping: the PBFT replica set
 * @param smartBftOptions {@code ConsensusType.metadata} as decoded
 * @param pbft what the SmartBFT options and BatchSize mean for our replicas
 * @param batchLimits {@code BatchSize}
 * @param batchTimeout {@code BatchTimeout}; validated like Fabric but, as in Fabric's BFT, not used
 *     to cut blocks ({@link PbftSettings#batchMaxInterval()} is)
 * @param ordererEndpoints Broadcast/Deliver endpoints ("host:port") per orderer organization
 * @param blockValidationPolicy path of the policy peers check block signatures with; validated to
 *     be the BFT quorum policy over {@code consenters}
 */
public record ChannelConfig(
    String channelId,
    long blockNumber,
    long sequence,
    Config config,
    Capabilities capabilities,
    ConsensusState consensusState,
    ConsenterMapping consenters,
    Options smartBftOptions,
    PbftSettings pbft,
    BatchLimits batchLimits,
    Duration batchTimeout,
    Map<String, List<String>> ordererEndpoints,
    String blockValidationPolicy) {

  /** The policy path configtxgen writes for BFT channels and peers verify blocks with. */
  public static final String BLOCK_VALIDATION_POLICY = "/Channel/Orderer/BlockValidation";

  public ChannelConfig {
    ordererEndpoints = Map.copyOf(ordererEndpoints);
  }

  /**
   * The consenter this node is: the one whose identity or TLS certificate equals {@code
   * nodeCertificate}. Its {@link Consenter#id()} is this node's replica id on the channel.
   *
   * @throws NotAConsenterException when no consenter has that certificate
   */
  public Consenter thisNode(X509Certificate nodeCertificate) throws NotAConsenterException {
    return consenters
        .withCertificate(nodeCertificate)
        .orElseThrow(
            () ->
                new NotAConsenterException(
                    "this node ("
                        + nodeCertificate.getSubjectX500Principal().getName()
                        + ") is not a consenter of channel '"
                        + channelId
                        + "' as of config block "
                        + blockNumber
                        + ": its certificate matches no identity or TLS certificate of consenters "
                        + consenters.describe()));
  }

  /**
   * Whether this config puts the channel in maintenance mode as Fabric applies it: state
   * STATE_MAINTENANCE under an orderer capability with ConsensusTypeMigration (Fabric's
   * StandardChannel ignores the state otherwise).
   */
  public boolean inMaintenance() {
    return consensusState == ConsensusState.MAINTENANCE && capabilities.consensusTypeMigration();
  }
}
