package io.rubinbft.orderer.tools.bootstrap;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.hyperledger.fabric.protos.orderer.BatchSize;
import org.hyperledger.fabric.protos.orderer.smartbft.Options;

/**
 * What a configtx.yaml profile with {@code OrdererType: BFT} says: the orderer and application
 * organizations, the consenter mapping, batch size and timeout, and the SmartBFT options. The
 * capabilities are the ones a Fabric v3 BFT channel needs: channel V3_0, orderer V2_0, application
 * V2_5.
 */
public record BftChannelProfile(
    List<Organization> ordererOrgs,
    List<Organization> applicationOrgs,
    List<ConsenterSpec> consenters,
    BatchSize batchSize,
    Duration batchTimeout,
    Options smartBft) {

  public BftChannelProfile {
    ordererOrgs = List.copyOf(ordererOrgs);
    applicationOrgs = List.copyOf(applicationOrgs);
    consenters = List.copyOf(consenters);
    if (ordererOrgs.isEmpty() || consenters.isEmpty()) {
      throw new IllegalArgumentException(
          "a BFT channel needs an orderer organization and consenters");
    }
    Set<String> ordererMsps = new HashSet<>();
    ordererOrgs.forEach(org -> ordererMsps.add(org.mspId()));
    Set<Integer> ids = new HashSet<>();
    for (ConsenterSpec consenter : consenters) {
      if (!ids.add(consenter.id())) {
        throw new IllegalArgumentException("consenter id " + consenter.id() + " appears twice");
      }
      if (!ordererMsps.contains(consenter.mspId())) {
        throw new IllegalArgumentException(
            "consenter "
                + consenter.id()
                + " is in MSP "
                + consenter.mspId()
                + ", which is no orderer organization's "
                + ordererMsps);
      }
    }
    checkBatchSize(batchSize);
    if (batchTimeout.isNegative() || batchTimeout.isZero()) {
      throw new IllegalArgumentException(
          "batch timeout is " + batchTimeout + " but must be positive");
    }
  }

  private static void checkBatchSize(BatchSize batchSize) {
    if (batchSize.getMaxMessageCount() < 1) {
      throw new IllegalArgumentException(
          "BatchSize.MaxMessageCount is "
              + batchSize.getMaxMessageCount()
              + " but must be at least 1");
    }
    if (Integer.compareUnsigned(batchSize.getPreferredMaxBytes(), batchSize.getAbsoluteMaxBytes())
            > 0
        || batchSize.getPreferredMaxBytes() == 0) {
      throw new IllegalArgumentException(
          "BatchSize.PreferredMaxBytes is "
              + Integer.toUnsignedString(batchSize.getPreferredMaxBytes())
              + " but must be in 1.."
              + Integer.toUnsignedString(batchSize.getAbsoluteMaxBytes())
              + " (AbsoluteMaxBytes)");
    }
  }
}
