package io.rubinbft.orderer.node;

import io.rubinbft.orderer.cluster.ClusterNetwork;
import io.rubinbft.orderer.consensus.EpochReplica;
import java.security.cert.X509Certificate;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands the CONFIG envelopes this node makes to the channel's other consenters, so the primary has
 * it whichever node the operator sent the update to (Fabric's BFT orderer forwards requests to the
 * leader; clients send config updates to one orderer, while they send transactions to all). It
 * travels on the cluster network under the channel's name plus "+config", which no Fabric channel
 * name can hold. Each receiver checks it under its own committed config before its pool takes it,
 * whatever consensus epoch the sender is in; senders are the consenters of the receiver's epoch.
 */
final class ConfigForwarding implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ConfigForwarding.class);

  /** Received CONFIG envelopes being checked at once; more are dropped (the sender may resend). */
  private static final int MAX_CHECKS = 4;

  private final String topic;
  private final ClusterNetwork network;
  private final Supplier<Optional<EpochReplica>> epoch;
  private final Consumer<byte[]> admit;
  private final Semaphore checks = new Semaphore(MAX_CHECKS);

  /**
   * @param epoch the consensus epoch this node orders in; empty while it follows the channel
   * @param admit checks a received CONFIG envelope and offers it to the pool; may take a while
   */
  ConfigForwarding(
      String channel,
      ClusterNetwork network,
      Supplier<Optional<EpochReplica>> epoch,
      Consumer<byte[]> admit) {
    this.topic = channel + "+config";
    this.network = network;
    this.epoch = epoch;
    this.admit = admit;
    network.register(topic, this::onReceived);
  }

  /** Sends {@code configEnvelope} to every other consenter of this node's epoch. */
  void forward(byte[] configEnvelope) {
    epoch
        .get()
        .ifPresent(
            current -> {
              for (int replica = 0; replica < current.directory().size(); replica++) {
                if (replica != current.self()) {
                  network.send(
                      current.directory().address(replica), topic, current.epoch(), configEnvelope);
                }
              }
            });
  }

  /** On the network thread: the check runs elsewhere, a bounded number at a time. */
  private void onReceived(X509Certificate peer, long senderEpoch, byte[] configEnvelope) {
    Optional<EpochReplica> current = epoch.get();
    if (current.isEmpty() || current.get().directory().replicaOf(peer).isEmpty()) {
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
