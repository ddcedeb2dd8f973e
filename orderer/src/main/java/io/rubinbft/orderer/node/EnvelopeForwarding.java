package io.rubinbft.orderer.node;

import io.rubinbft.orderer.cluster.ClusterNetwork;
import io.rubinbft.orderer.concurrent.Worker;
import io.rubinbft.orderer.concurrent.WorkerGroup;
import io.rubinbft.orderer.consensus.EpochReplica;
import io.rubinbft.orderer.consensus.ForwardCounts;
import io.rubinbft.orderer.consensus.ReplicaHost;
import java.security.cert.X509Certificate;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Receives the envelopes other consenters forward to this node ({@link ReplicaHost} sends them: a
 * CONFIG envelope at once, a client's envelope still pending after the channel's request forward
 * timeout). A forwarding consenter may be Byzantine, so each envelope passes the same check as a
 * backup's proposal check before the pool takes it, on a worker thread of the channel's own;
 * senders are the consenters of this node's epoch, each within a budget of envelopes and bytes per
 * second, and of bytes waiting for their check. Whatever is dropped is counted by reason;
 * duplicates of what is pending or decided cost a pool lookup.
 */
final class EnvelopeForwarding implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(EnvelopeForwarding.class);

  private final String topic;
  private final ClusterNetwork network;
  private final Supplier<Optional<EpochReplica>> epoch;
  private final Function<byte[], Optional<String>> admit;
  private final ForwardCounts counts;
  private final ForwardBudget budget = new ForwardBudget();
  private final ForwardedQueue received;
  private final Worker worker;

  /**
   * @param epoch the consensus epoch this node orders in; empty while it follows the channel
   * @param admit checks a received envelope and offers it to the pool; answers why it is invalid
   * @param senderBudget bytes of envelopes from one sender that may wait for their check
   * @param workers the workers the channel needs, which the checking worker joins: if a check
   *     throws, the channel's replica stops and restarts, so that forwarded envelopes are checked
   *     again rather than dropped unseen
   */
  EnvelopeForwarding(
      String channel,
      ClusterNetwork network,
      Supplier<Optional<EpochReplica>> epoch,
      ForwardCounts counts,
      Function<byte[], Optional<String>> admit,
      long senderBudget,
      WorkerGroup workers) {
    this.received = new ForwardedQueue(senderBudget);
    this.topic = ReplicaHost.forwardTopic(channel);
    this.network = network;
    this.epoch = epoch;
    this.counts = counts;
    this.admit = admit;
    this.worker =
        Worker.named("forwarded-" + channel)
            .virtual()
            .partOf(workers, "envelope forwarding")
            .start(self -> checkAll());
    network.register(topic, this::onReceived);
  }

  /** On the network thread: only the sender and its budget are checked here. */
  private void onReceived(X509Certificate peer, long senderEpoch, byte[] envelope) {
    Optional<EpochReplica> current = epoch.get();
    OptionalInt sender =
        current.isEmpty() ? OptionalInt.empty() : current.get().directory().replicaOf(peer);
    if (sender.isEmpty()) {
      counts.add(ForwardCounts.Received.NOT_A_MEMBER);
    } else if (!budget.spend(sender.getAsInt(), envelope.length, System.nanoTime())) {
      counts.add(ForwardCounts.Received.OVER_BUDGET);
    } else if (!received.offer(sender.getAsInt(), envelope)) {
      counts.add(ForwardCounts.Received.QUEUE_FULL);
    }
  }

  private void checkAll() throws InterruptedException {
    while (true) {
      ForwardedQueue.Held held = received.take();
      Optional<String> invalid;
      try {
        invalid = admit.apply(held.envelope());
      } finally {
        held.release();
      }
      if (invalid.isPresent()) {
        counts.add(ForwardCounts.Received.INVALID);
        LOG.warn("forwarded envelope on {} dropped: {}", topic, invalid.get());
      } else {
        counts.add(ForwardCounts.Received.ADMITTED);
      }
    }
  }

  @Override
  public void close() {
    network.unregister(topic);
    worker.close();
  }
}
