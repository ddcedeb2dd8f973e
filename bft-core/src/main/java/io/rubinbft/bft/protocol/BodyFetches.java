package io.rubinbft.bft.protocol;

import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.message.FetchProposal;
import io.rubinbft.bft.message.Message;
import io.rubinbft.bft.message.NewView;
import io.rubinbft.bft.message.ProposalBodies;
import io.rubinbft.bft.message.ProposalBody;
import io.rubinbft.bft.message.ViewChange;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * View changes and new views name their proposals by digest (TOCS'02 section 4.6: replicas fetch
 * the requests they lack). A received one is completed here before the protocol looks at it: each
 * hollow proposal is filled from what this replica holds, and the rest are fetched, one {@link
 * FetchProposal} per digest, first from the replica that sent the message (a correct sender holds
 * every body it names), then from the others in turn, once per status interval. A body is kept only
 * if it hashes to a digest some waiting message names, so any replica may answer and a wrong body
 * changes nothing; the completed message then passes the whole validator, which checks every digest
 * again.
 *
 * <p>Bounds: a message waits only after its body-free checks pass (signatures, certificates: so
 * every digest it waits for was prepared by a quorum or is its sender's claimed decision); one
 * waiting view change per sender (the highest view) and one new view (the highest); each waits at
 * most {@link #deadline} ticks (its sender retransmits it; a withheld body costs a view change, as
 * a silent primary does); bodies are held only for digests a waiting message still needs, each
 * within the proposal limits (the validator drops a larger {@link ProposalBody}). Answers to a
 * peer's fetches are limited per status interval to what completing one new view can need, in
 * bodies ({@link #answerBudget}) and in request bytes ({@link #answerBytes}), and each digest is
 * answered to a peer at most once per interval (a correct peer's one answer completes every message
 * waiting for it).
 */
final class BodyFetches {

  /** A message waiting for bodies. */
  private static final class Waiting {
    final int from;
    Message message;
    Map<Digest, Long> missing;
    final long until;
    long askedAt;
    int asked;

    Waiting(int from, Message message, Map<Digest, Long> missing, long until) {
      this.from = from;
      this.message = message;
      this.missing = missing;
      this.until = until;
    }
  }

  private final Context ctx;
  private final ProposalBodies.Lookup held;
  private final TreeMap<Integer, Waiting> viewChanges = new TreeMap<>();
  private @Nullable Waiting newView;
  private final Map<Digest, Proposal> fetched = new HashMap<>();
  private final Map<Integer, Answered> answered = new HashMap<>();

  /** What this replica sent one peer in answer to its fetches in this status interval. */
  private static final class Answered {
    final Set<Digest> digests = new HashSet<>();
    long bytes;
  }

  /**
   * @param held the bodies this replica holds (its log, decisions, view changes and new view)
   */
  BodyFetches(Context ctx, ProposalBodies.Lookup held) {
    this.ctx = ctx;
    this.held = held;
  }

  /** The message with every body in, or empty while it waits for some (body-free checks passed). */
  Optional<Message> complete(int from, Message message) {
    Message filled = fill(message);
    Map<Digest, Long> missing = ProposalBodies.missing(filled);
    if (missing.isEmpty()) {
      return Optional.of(filled);
    }
    Waiting waiting = new Waiting(from, filled, missing, ctx.now + deadline());
    switch (filled) {
      case ViewChange viewChange -> {
        Waiting previous = viewChanges.get(viewChange.sender());
        if (previous != null && ((ViewChange) previous.message).newView() >= viewChange.newView()) {
          return Optional.empty();
        }
        viewChanges.put(viewChange.sender(), waiting);
      }
      case NewView view -> {
        if (newView != null && ((NewView) newView.message).view() >= view.view()) {
          return Optional.empty();
        }
        newView = waiting;
      }
      default -> throw new IllegalArgumentException("only view changes and new views wait");
    }
    ask(waiting, from);
    forgetUnneeded();
    return Optional.empty();
  }

  /** Answers a peer's fetch from the bodies this replica holds. */
  void onFetch(FetchProposal fetch) {
    Proposal body = body(fetch.sequence(), fetch.digest());
    if (body == null) {
      ctx.drops.drop("unknown body: " + fetch.digest() + " at " + fetch.sequence());
      return;
    }
    Answered peer = answered.computeIfAbsent(fetch.sender(), sender -> new Answered());
    if (peer.digests.contains(fetch.digest())) {
      ctx.drops.drop("asked again: proposal body " + fetch.digest() + " for " + fetch.sender());
      return;
    }
    if (peer.digests.size() >= answerBudget() || peer.bytes + body.requestBytes() > answerBytes()) {
      ctx.drops.drop("busy: proposal bodies for " + fetch.sender());
      return;
    }
    peer.digests.add(fetch.digest());
    peer.bytes += body.requestBytes();
    ctx.out.sendNow(fetch.sender(), new ProposalBody(body, ctx.self));
  }

  /** Takes a fetched body in; returns the messages it completed, oldest waiting first. */
  List<Message> onBody(ProposalBody answer) {
    Proposal proposal = answer.proposal();
    if (!awaitsSequence(proposal.sequence())) {
      ctx.drops.drop("unsolicited: proposal body at " + proposal.sequence());
      return List.of();
    }
    Digest digest = ctx.digest(proposal);
    if (!awaits(digest)) {
      ctx.drops.drop(
          "wrong body: from "
              + answer.sender()
              + " at "
              + proposal.sequence()
              + " hashes to "
              + digest
              + ", which no waiting message names");
      return List.of();
    }
    fetched.put(digest, proposal);
    List<Message> completed = new ArrayList<>();
    for (Iterator<Waiting> all = waitingIterator(); all.hasNext(); ) {
      Waiting waiting = all.next();
      waiting.message = fill(waiting.message);
      waiting.missing = ProposalBodies.missing(waiting.message);
      if (waiting.missing.isEmpty()) {
        completed.add(waiting.message);
        all.remove();
      }
    }
    forgetUnneeded();
    return completed;
  }

  /** Per tick: asks the next replica for what is still missing, and drops what waited too long. */
  void onTick() {
    if (ctx.now % ctx.config.statusIntervalTicks() == 0) {
      answered.clear();
    }
    boolean expired = false;
    for (Iterator<Waiting> all = waitingIterator(); all.hasNext(); ) {
      Waiting waiting = all.next();
      if (ctx.now >= waiting.until) {
        ctx.drops.drop("body fetch timed out: " + waiting.missing.size() + " bodies missing");
        all.remove();
        expired = true;
      } else if (ctx.now - waiting.askedAt >= ctx.config.statusIntervalTicks()) {
        ask(waiting, nextSource(waiting));
      }
    }
    if (expired) {
      forgetUnneeded();
    }
  }

  /** The body with this digest if this replica holds it (also the ones fetched for waiting). */
  @Nullable Proposal body(long sequence, Digest digest) {
    Proposal body = held.body(sequence, digest);
    return body != null ? body : fetched.get(digest);
  }

  private Message fill(Message message) {
    return switch (message) {
      case ViewChange viewChange -> ProposalBodies.filled(viewChange, this::body);
      case NewView view -> ProposalBodies.filled(view, this::body);
      default -> message;
    };
  }

  private void ask(Waiting waiting, int source) {
    waiting.askedAt = ctx.now;
    waiting.asked++;
    waiting.missing.forEach(
        (digest, sequence) ->
            ctx.out.sendNow(source, new FetchProposal(sequence, digest, ctx.self)));
  }

  /** The sender first, then every other replica in turn (not this one). */
  private int nextSource(Waiting waiting) {
    int n = ctx.config.replicas();
    int source = (waiting.from + waiting.asked) % n;
    if (source == ctx.self) {
      waiting.asked++;
      source = (source + 1) % n;
    }
    return source;
  }

  /** Long enough for a sender's retransmission and a few rounds of asking others. */
  private long deadline() {
    return Math.max(ctx.config.viewChangeTimeoutTicks(), 4L * ctx.config.statusIntervalTicks());
  }

  /**
   * What completing one new view can take, in bodies: a quorum of view changes' and its own
   * re-proposals', each a last decision and at most a window of proposals.
   */
  private int answerBudget() {
    return (ctx.quorums.quorum() + 1) * (ctx.config.window() + 1);
  }

  /**
   * The same in request bytes: each of those q + 1 parts is at most one batch (a view change's last
   * decision) and what a correct replica holds above its stable checkpoint, which its prepared
   * certificates and a new view's re-proposals are chosen from ({@link
   * io.rubinbft.bft.ReplicaConfig#backupWindowBytes}, 2W). A peer asking for more in one interval
   * asks for what no new view needs; a correct peer missing more still gets it within its wait,
   * which spans at least four intervals, each with this budget at the next replica it asks.
   */
  private long answerBytes() {
    return (ctx.quorums.quorum() + 1L)
        * (ctx.config.backupWindowBytes() + ctx.config.batchMaxBytes());
  }

  private boolean awaitsSequence(long sequence) {
    for (Iterator<Waiting> all = waitingIterator(); all.hasNext(); ) {
      if (all.next().missing.containsValue(sequence)) {
        return true;
      }
    }
    return false;
  }

  private boolean awaits(Digest digest) {
    for (Iterator<Waiting> all = waitingIterator(); all.hasNext(); ) {
      if (all.next().missing.containsKey(digest)) {
        return true;
      }
    }
    return false;
  }

  private void forgetUnneeded() {
    Set<Digest> needed = new HashSet<>();
    for (Iterator<Waiting> all = waitingIterator(); all.hasNext(); ) {
      needed.addAll(all.next().missing.keySet());
    }
    fetched.keySet().retainAll(needed);
  }

  /** The waiting view changes, then the waiting new view; removal supported. */
  private Iterator<Waiting> waitingIterator() {
    Iterator<Waiting> changes = viewChanges.values().iterator();
    return new Iterator<>() {
      private boolean onNewView;
      private boolean newViewDone = newView == null;

      @Override
      public boolean hasNext() {
        return changes.hasNext() || !newViewDone;
      }

      @Override
      public Waiting next() {
        if (changes.hasNext()) {
          return changes.next();
        }
        Waiting last = newView;
        if (newViewDone || last == null) {
          throw new NoSuchElementException();
        }
        onNewView = true;
        newViewDone = true;
        return last;
      }

      @Override
      public void remove() {
        if (onNewView) {
          newView = null;
        } else {
          changes.remove();
        }
      }
    };
  }
}
