package io.rubinbft.orderer.service;

import org.hyperledger.fabric.protos.common.Envelope;

/**
 * A channel this node serves to Deliver only (it follows the channel, or stopped ordering on it):
 * every Broadcast, config update or not, gets one answer, {@link #refusal}.
 */
public interface ReadOnlyChannel extends ServedChannel {

  /** The answer to every envelope sent to the channel. */
  SubmitOutcome refusal();

  @Override
  default SubmitOutcome submit(Envelope envelope, String txId) {
    return refusal();
  }

  @Override
  default SubmitOutcome submitConfigUpdate(Envelope update) {
    return refusal();
  }
}
