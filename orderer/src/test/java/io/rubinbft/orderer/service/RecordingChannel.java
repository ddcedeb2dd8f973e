package io.rubinbft.orderer.service;

import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.orderer.validation.ChannelRules;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.hyperledger.fabric.protos.common.Envelope;

/**
 * A served channel whose request pool only records what it is given: consensus is not under test
 * here. It refuses a transaction id it has seen (as the real pool does for one pending or recently
 * ordered) and answers PoolFull at {@code capacity}.
 */
final class RecordingChannel implements ServedChannel {

  /** One accepted submission. */
  record Submission(String txId, Envelope envelope) {}

  private final ChannelLedger ledger;
  private final int capacity;
  private final List<Submission> submissions = new ArrayList<>();
  private final Set<String> txIds = new HashSet<>();
  private final List<Envelope> configUpdates = new ArrayList<>();
  private volatile ChannelRules rules;

  RecordingChannel(ChannelRules rules, ChannelLedger ledger, int capacity) {
    this.rules = rules;
    this.ledger = ledger;
    this.capacity = capacity;
  }

  @Override
  public ChannelRules rules() {
    return rules;
  }

  /** A config change: new rules, as the runtime installs them. */
  void install(ChannelRules newRules) {
    rules = newRules;
  }

  @Override
  public ChannelLedger ledger() {
    return ledger;
  }

  @Override
  public synchronized SubmitOutcome submit(Envelope envelope, String txId) {
    if (txIds.contains(txId)) {
      // As the runtime answers: a copy is taken (ordered once), another envelope refused.
      return submissions.stream().anyMatch(s -> s.envelope().equals(envelope))
          ? new SubmitOutcome.Accepted()
          : new SubmitOutcome.Conflicting(txId, OptionalLong.empty());
    }
    if (submissions.size() >= capacity) {
      return new SubmitOutcome.PoolFull(capacity + " requests");
    }
    txIds.add(txId);
    submissions.add(new Submission(txId, envelope));
    return new SubmitOutcome.Accepted();
  }

  /** Config updates are recorded apart, unprocessed: config update processing is not under test. */
  @Override
  public synchronized SubmitOutcome submitConfigUpdate(Envelope update) {
    configUpdates.add(update);
    return new SubmitOutcome.Accepted();
  }

  synchronized List<Envelope> configUpdates() {
    return List.copyOf(configUpdates);
  }

  synchronized List<Submission> submissions() {
    return List.copyOf(submissions);
  }
}
