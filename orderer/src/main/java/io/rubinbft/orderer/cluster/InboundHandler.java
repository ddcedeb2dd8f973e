package io.rubinbft.orderer.cluster;

import java.security.cert.X509Certificate;

/** Receives one channel's consensus messages from the cluster network thread. */
@FunctionalInterface
public interface InboundHandler {

  /**
   * A message from the peer that authenticated with {@code peer}, sent by its replica of epoch
   * {@code epoch}. The bytes are a copy: the handler may keep them. Called on the network thread:
   * hand the message on, do not block.
   */
  void onMessage(X509Certificate peer, long epoch, byte[] message);
}
