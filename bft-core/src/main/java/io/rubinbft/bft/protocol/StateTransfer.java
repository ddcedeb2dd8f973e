package io.rubinbft.bft.protocol;

import io.rubinbft.bft.CommitSignature;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.message.Decisions;
import io.rubinbft.bft.message.FetchDecisions;
import io.rubinbft.bft.message.Status;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Catching up: replicas announce their status; a replica that sees a peer ahead fetches decisions
 * with their commit certificates from that one peer and checks each itself (digest, chain, a quorum
 * of valid signatures), so one honest source suffices. A source that sends anything invalid is not
 * asked again for a while; a replica in an older view gets the current new-view proof.
 */
final class StateTransfer {

  private final Context ctx;
  private final Delivery delivery;
  private final Map<Integer, Long> distrustedUntil = new HashMap<>();
  private int source = -1;
  private long fetchDeadline;

  StateTransfer(Context ctx, Delivery delivery) {
    this.ctx = ctx;
    this.delivery = delivery;
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
          source, new FetchDecisions(ctx.log.lastDelivered() + 1, ctx.config.window(), ctx.self));
    }
  }

  void onFetch(FetchDecisions fetch) {
    int count = Math.min(fetch.maxCount(), ctx.config.window());
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
    if (decision.proposal() == null || decision.digest() == null) {
      return Optional.of("bad decision: null field");
    }
    long expected = ctx.log.lastDelivered() + 1;
    if (decision.sequence() != expected) {
      return Optional.of(
          "bad decision: sequence is " + decision.sequence() + " but expected " + expected);
    }
    Digest actual = ctx.digest(decision.proposal());
    if (!actual.equals(decision.digest())) {
      return Optional.of(
          "bad decision: digest is " + decision.digest() + " but hashes to " + actual);
    }
    if (!decision.proposal().previous().equals(ctx.log.lastDigest())) {
      return Optional.of(
          "bad decision: " + expected + " does not chain to the decision at " + (expected - 1));
    }
    return certificateReason(decision);
  }

  private Optional<String> certificateReason(Decision decision) {
    Set<Integer> signers = new HashSet<>();
    for (CommitSignature signature : decision.certificate()) {
      int replica = signature == null ? -1 : signature.replica();
      if (replica < 0
          || replica >= ctx.config.replicas()
          || signature.signature() == null
          || !ctx.services
              .signer()
              .verifyProposalSignature(replica, decision.proposal(), signature.signature())) {
        return Optional.of(
            "bad decision: invalid commit signature of " + replica + " at " + decision.sequence());
      }
      signers.add(replica);
    }
    return signers.size() >= ctx.quorums.quorum()
        ? Optional.empty()
        : Optional.of(
            "bad decision: "
                + signers.size()
                + " signers at "
                + decision.sequence()
                + " but a quorum is "
                + ctx.quorums.quorum());
  }
}
