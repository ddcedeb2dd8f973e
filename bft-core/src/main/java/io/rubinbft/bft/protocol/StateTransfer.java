package io.rubinbft.bft.protocol;

import io.rubinbft.bft.ArchiveRead;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.message.Decisions;
import io.rubinbft.bft.message.FetchDecisions;
import io.rubinbft.bft.message.Status;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Catching up: replicas announce their status; a replica that sees a peer ahead fetches decisions
 * with their commit certificates from that one peer and checks each itself (digest, chain, a quorum
 * of valid signatures), so one honest source suffices. A source that sends anything invalid is not
 * asked again for a while; a replica in an older view gets the current new-view proof. Decisions
 * older than those a replica holds in memory come from its host's durable store ({@link
 * ArchiveRead}), so a replica any distance behind catches up.
 */
final class StateTransfer {

  private final Context ctx;
  private final Delivery delivery;
  private final MessageValidator validator;
  private final Map<Integer, Long> distrustedUntil = new HashMap<>();
  private final Map<Integer, Long> archiveReadAllowedAt = new HashMap<>();
  private int source = -1;
  private long fetchDeadline;

  StateTransfer(Context ctx, Delivery delivery, MessageValidator validator) {
    this.ctx = ctx;
    this.delivery = delivery;
    this.validator = validator;
  }

  void announce() {
    ctx.out.broadcastNow(
        new Status(ctx.view, ctx.viewInstalled, ctx.log.lastDelivered(), ctx.self));
  }

  void onStatus(Status status) {
    boolean peerBehindInView =
        status.view() < ctx.view || (status.view() == ctx.view && !status.viewInstalled());
    if (peerBehindInView && ctx.viewInstalled && ctx.installedNewView != null) {
      ctx.out.sendNow(status.sender(), ctx.installedNewView);
    }
    boolean fetching = source >= 0 && ctx.now < fetchDeadline;
    if (status.lastDelivered() > ctx.log.lastDelivered()
        && !fetching
        && distrustedUntil.getOrDefault(status.sender(), -1L) < ctx.now) {
      source = status.sender();
      fetchDeadline = ctx.now + 2L * ctx.config.statusIntervalTicks();
      ctx.out.sendNow(
          source,
          new FetchDecisions(
              ctx.log.lastDelivered() + 1, ctx.log.lastDigest(), ctx.config.window(), ctx.self));
    }
  }

  /**
   * Answers from memory, or, for decisions this replica no longer holds, asks the host to answer
   * from its durable store: at most once per peer and status interval, as a storage read costs more
   * than a message and a Byzantine peer could ask for old decisions without end.
   */
  void onFetch(FetchDecisions fetch) {
    int count = Math.min(fetch.maxCount(), ctx.config.window());
    if (fetch.from() <= ctx.log.lastDelivered() && ctx.log.decision(fetch.from()) == null) {
      long allowedAt = archiveReadAllowedAt.getOrDefault(fetch.sender(), 0L);
      if (ctx.now < allowedAt) {
        ctx.drops.drop("busy: archive read for " + fetch.sender() + " until tick " + allowedAt);
        return;
      }
      archiveReadAllowedAt.put(fetch.sender(), ctx.now + ctx.config.statusIntervalTicks());
      ctx.out.readArchive(new ArchiveRead(fetch.sender(), fetch.from(), fetch.previous(), count));
      return;
    }
    var decisions = ctx.log.decisionsFrom(fetch.from(), count);
    if (!decisions.isEmpty()) {
      ctx.out.sendNow(fetch.sender(), new Decisions(decisions, ctx.self));
    }
  }

  void onDecisions(Decisions answer) {
    if (answer.sender() != source) {
      ctx.drops.drop("unsolicited: decisions from " + answer.sender());
      return;
    }
    source = -1;
    for (Decision decision : answer.decisions()) {
      if (decision.proposal() == null) {
        ctx.drops.drop("bad decision: null proposal");
        return;
      }
      if (decision.sequence() <= ctx.log.lastDelivered()) {
        continue;
      }
      Optional<String> reason = invalidReason(decision);
      if (reason.isPresent()) {
        ctx.drops.drop(reason.get());
        distrustedUntil.put(answer.sender(), ctx.now + 10L * ctx.config.statusIntervalTicks());
        return;
      }
      delivery.decided(decision);
    }
  }

  private Optional<String> invalidReason(Decision decision) {
    long expected = ctx.log.lastDelivered() + 1;
    if (decision.sequence() != expected) {
      return Optional.of(
          "bad decision: sequence is " + decision.sequence() + " but expected " + expected);
    }
    if (!decision.proposal().previous().equals(ctx.log.lastDigest())) {
      return Optional.of(
          "bad decision: " + expected + " does not chain to the decision at " + (expected - 1));
    }
    return validator.decisionReason(decision);
  }
}
