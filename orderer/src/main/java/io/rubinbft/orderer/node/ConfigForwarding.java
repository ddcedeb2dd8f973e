package io.rubinbft.orderer.node;

import io.rubinbft.orderer.cluster.ClusterNetwork;
import io.rubinbft.orderer.consensus.ReplicaDirectory;
import java.security.cert.X509Certificate;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands the CONFIG envelopes this node makes to the channel's other consenters, so the primary has
 * it whichever node the operator sent the update to (Fabric's BFT orderer forwards requests to the
 * leader; clients send config updates to one orderer, while they send transactions to all). It
 * travels on the cluster network under the channel's name plus "+config", which no Fabric channel
 * name can hold. Each receiver checks it under its own committed config before its pool takes it.
 */
final class ConfigForwarding implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ConfigForwarding.class);

  /** Received CONFIG envelopes being checked at once; more are dropped (the sender may resend). */
  private static final int MAX_CHECKS = 4;

  private final String topic;
  private final ClusterNetwork network;
  private final ReplicaDirectory directory;
  private final int self;
  private final Consumer<byte[]> admit;
  private final Semaphore checks = new Semaphore(MAX_CHECKS);

  /**
   * @param self this node's replica index
   * @param admit checks a received CONFIG envelope and offers it to the pool; may take a while
   */
  ConfigForwarding(
      String channel,
      ClusterNetwork network,
      ReplicaDirectory directory,
      int self,
      Consumer<byte[]> admit) {
    this.topic = channel + "+config";
    this.network = network;
    this.directory = directory;
    this.self = self;
    this.admit = admit;
    network.register(topic, this::onReceived);
  }

  /** Sends {@code configEnvelope} to every other consenter. */
  void forward(byte[] configEnvelope) {
    for (int replica = 0; replica < directory.size(); replica++) {
      if (replica != self) {
        network.send(directory.address(replica), topic, configEnvelope);
      }
    }
  }

  /** On the network thread: the check runs elsewhere, a bounded number at a time. */
  private void onReceived(X509Certificate peer, byte[] configEnvelope) {
    if (directory.replicaOf(peer).isEmpty()) {
      LOG.debug("dropped a forwarded config envelope from a non-consenter on {}", topic);
      return;
    }
    if (!checks.tryAcquire()) {
      LOG.warn("dropped a forwarded config envelope on {}: {} checks running", topic, MAX_CHECKS);
      return;
    }
    Thread.ofVirtual()
        .name("config-check-" + topic)
        .start(
            () -> {
              try {
                admit.accept(configEnvelope);
              } finally {
                checks.release();
              }
            });
  }

  @Override
  public void close() {
    network.unregister(topic);
  }
}
