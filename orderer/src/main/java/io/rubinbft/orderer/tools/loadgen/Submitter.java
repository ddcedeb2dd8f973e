package io.rubinbft.orderer.tools.loadgen;

import org.hyperledger.fabric.protos.common.Envelope;

/** Sends each envelope to every orderer and decides, as Fabric's gateway does, whether it took. */
interface Submitter extends AutoCloseable {

  /** Sends {@code envelope} and waits for the quorum's decision (or the timeout). */
  QuorumSubmitter.Outcome submit(Envelope envelope) throws InterruptedException;

  @Override
  void close();
}
