package io.rubinbft.orderer.deliver;

import org.hyperledger.fabric.protos.orderer.DeliverResponse;

/** Where a Deliver stream's blocks go. */
@FunctionalInterface
public interface ResponseSink {

  /**
   * Sends {@code response}, first waiting until the transport can take it, so a slow reader holds
   * back the stream instead of making the server buffer blocks.
   *
   * @throws InterruptedException when the call is cancelled (or the thread interrupted) meanwhile
   */
  void send(DeliverResponse response) throws InterruptedException;
}
