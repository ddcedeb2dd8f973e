package io.rubinbft.bft.sim;

import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Epoch;
import io.rubinbft.bft.Outbound;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.message.Checkpoint;
import io.rubinbft.bft.message.Commit;
import io.rubinbft.bft.message.Decisions;
import io.rubinbft.bft.message.FetchDecisions;
import io.rubinbft.bft.message.FetchProposal;
import io.rubinbft.bft.message.Message;
import io.rubinbft.bft.message.NewView;
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.message.Prepare;
import io.rubinbft.bft.message.SignedBytes;
import io.rubinbft.bft.message.Status;
import io.rubinbft.bft.message.ViewChange;
import io.rubinbft.bft.spi.Crypto;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * A Byzantine replica's behaviour: it runs a correct replica inside and rewrites what that replica
 * sends, adds messages of its own, and may ignore requests. It signs only with its own node's keys.
 *
 * <p>Its node id (whose keys it holds) is fixed; its {@link Seat} (replica index, epoch, replica
 * count) is the epoch's: with reconfiguration the host gives it a new seat at every switch it stays
 * a member through, and it remembers the epoch before for {@link Attack#STALE_EPOCH}.
 */
final class Byzantine {

  /** Where the node sits in one epoch: its replica index among {@code replicas}. */
  record Seat(int index, Epoch epoch, int replicas) {}

  private static final int HISTORY = 256;
  private static final Epoch MADE_UP =
      new Epoch(0, new Digest(SimKeys.sha256(new byte[] {'o', 'l', 'd'})));

  private final int node;
  private final Set<Attack> attacks;
  private final Random random;
  private final Crypto crypto;
  private final SimKeys keys;
  private final List<Message> history = new ArrayList<>();
  private Seat seat;
  private Epoch stale = MADE_UP;
  private ViewChange ownViewChange;
  private ViewChange eager;

  /** Fetches per tick of {@link Attack#ARCHIVE_FLOOD}: many times the reads a peer may have. */
  static final int ARCHIVE_FLOOD_PER_TICK = 32;

  /** Fetches per tick and replica of {@link Attack#BODY_FETCH_FLOOD}. */
  static final int BODY_FETCH_FLOOD_PER_TICK = 32;

  /** How many of the latest proposals seen {@link Attack#BODY_FETCH_FLOOD} asks for. */
  static final int BODY_FETCH_FLOOD_RECENT = 32;

  /** Every (sequence, digest) of a proposal it has seen, for {@link Attack#BODY_FETCH_FLOOD}. */
  private final List<FetchProposal> bodiesSeen = new ArrayList<>();

  private final Set<FetchProposal> bodiesKnown = new HashSet<>();

  /** The lying status of this tick ({@link Attack#STATUS_FLOOD}), the one message it lets out. */
  private Status floodStatus;

  Byzantine(int node, Seat seat, Set<Attack> attacks, Random random, SimKeys keys) {
    this.node = node;
    this.seat = seat;
    this.attacks = EnumSet.copyOf(attacks);
    this.random = random;
    this.crypto = keys.crypto(node);
    this.keys = keys;
  }

  Set<Attack> attacks() {
    return attacks;
  }

  /** The node stays a member across a switch: from now on it lies in the new epoch. */
  void takeSeat(Seat next) {
    stale = seat.epoch();
    seat = next;
  }

  boolean acceptsRequest(Request request) {
    String client = request.id().client();
    return !(attacks.contains(Attack.CENSOR)
        && (client.equals("client-0") || client.equals(MembershipApplication.ADMIN)));
  }

  /** What actually leaves for replica {@code to} instead of {@code message}. */
  List<Outbound> rewrite(int to, Message message) {
    if (attacks.contains(Attack.STATUS_FLOOD)) {
      return message == floodStatus ? List.of(Outbound.toReplica(to, message)) : List.of();
    }
    if (attacks.contains(Attack.SILENT)
        || (attacks.contains(Attack.SELECTIVE_SILENCE)
            && to == (seat.index() + 1) % seat.replicas())
        || (attacks.contains(Attack.WITHHOLD_COMMITS) && message instanceof Commit)) {
      return List.of();
    }
    if (message instanceof ViewChange viewChange) {
      ownViewChange = viewChange;
    }
    Message sent = message;
    if (attacks.contains(Attack.EQUIVOCATE) && message instanceof PrePrepare pp && to % 2 == 1) {
      sent = equivocate(pp);
    }
    if (attacks.contains(Attack.WRONG_DIGEST) && random.nextInt(4) == 0) {
      sent = wrongDigest(sent);
    }
    if (attacks.contains(Attack.WRONG_CHECKPOINT) && sent instanceof Checkpoint c) {
      sent = checkpoint(c.sequence(), randomDigest(), seat.epoch());
    }
    if (attacks.contains(Attack.BAD_SIGNATURES) && random.nextInt(4) == 0) {
      sent = corrupt(sent);
    }
    if (attacks.contains(Attack.LYING_STATE_TRANSFER) && sent instanceof Decisions answer) {
      sent = new Decisions(answer.decisions().stream().map(Byzantine::tamper).toList(), index());
    }
    sent = lieInViewChanges(sent);
    if (attacks.contains(Attack.STALE_EPOCH) && random.nextBoolean()) {
      sent = signedUnder(stale, sent);
    }
    remember(sent);
    return List.of(Outbound.toReplica(to, sent));
  }

  /** Messages of its own in reaction to what it receives. */
  List<Outbound> onReceived(Message message) {
    remember(message);
    if (attacks.contains(Attack.BODY_FETCH_FLOOD)) {
      rememberBody(message);
    }
    if (attacks.contains(Attack.EAGER_VIEW_CHANGE)
        && message instanceof NewView newView
        && ownViewChange != null
        && (eager == null || newView.view() >= eager.newView())) {
      ViewChange v = ownViewChange;
      eager =
          signed(
              new ViewChange(
                  newView.view() + 1,
                  v.stableSequence(),
                  v.stableDigest(),
                  v.stableProof(),
                  v.lastDecision(),
                  v.prepared(),
                  index(),
                  null),
              seat.epoch());
      return List.of(Outbound.toAll(eager));
    }
    if (attacks.contains(Attack.SIGN_EVERYTHING) && message instanceof PrePrepare pp) {
      byte[] signature = keys.signCommit(node, pp.view(), pp.digest(), random.nextLong());
      return List.of(
          Outbound.toAll(new Commit(pp.view(), pp.sequence(), pp.digest(), index(), signature)));
    }
    return List.of();
  }

  /** Messages of its own each tick. */
  List<Outbound> onTick(long now) {
    List<Outbound> extra = new ArrayList<>();
    if (attacks.contains(Attack.STATUS_FLOOD)) {
      floodStatus = new Status(0, true, 1L << 40, index());
      extra.add(Outbound.toAll(floodStatus));
    }
    if (attacks.contains(Attack.ARCHIVE_FLOOD)) {
      for (int i = 0; i < ARCHIVE_FLOOD_PER_TICK; i++) {
        extra.add(
            Outbound.toAll(new FetchDecisions(1, Digest.GENESIS, Integer.MAX_VALUE, index())));
      }
    }
    if (attacks.contains(Attack.BODY_FETCH_FLOOD) && !bodiesSeen.isEmpty()) {
      for (int replica = 0; replica < seat.replicas(); replica++) {
        for (int i = 0; i < BODY_FETCH_FLOOD_PER_TICK && replica != index(); i++) {
          int recent = Math.min(bodiesSeen.size(), BODY_FETCH_FLOOD_RECENT);
          FetchProposal seen = bodiesSeen.get(bodiesSeen.size() - 1 - random.nextInt(recent));
          extra.add(
              Outbound.toReplica(
                  replica, new FetchProposal(seen.sequence(), seen.digest(), index())));
        }
      }
    }
    if (eager != null && now % 8 == 0) {
      extra.add(Outbound.toAll(eager));
    }
    if (attacks.contains(Attack.REPLAY) && now % 7 == 0 && !history.isEmpty()) {
      extra.add(Outbound.toAll(history.get(random.nextInt(history.size()))));
    }
    if (attacks.contains(Attack.BOGUS_VIEW_CHANGE) && now % 97 == 0) {
      long view = 1L + random.nextInt(50);
      extra.add(
          Outbound.toAll(
              signed(
                  new ViewChange(
                      view, 0, Digest.GENESIS, List.of(), null, List.of(), index(), null),
                  seat.epoch())));
    }
    return extra;
  }

  /** Remembers the digest of every proposal a pre-prepare, vote or decision names. */
  private void rememberBody(Message message) {
    FetchProposal named =
        switch (message) {
          case PrePrepare pp -> new FetchProposal(pp.sequence(), pp.digest(), index());
          case Prepare p -> new FetchProposal(p.sequence(), p.digest(), index());
          case Commit c -> new FetchProposal(c.sequence(), c.digest(), index());
          default -> null;
        };
    if (named != null && bodiesKnown.add(named)) {
      bodiesSeen.add(named);
    }
  }

  /** The same decision and certificate, over a proposal with the requests dropped. */
  static Decision tamper(Decision decision) {
    Proposal original = decision.proposal();
    Proposal forged =
        new Proposal(original.sequence(), original.previous(), List.of(), original.payload());
    return new Decision(forged, SimKeys.digestOf(forged), decision.view(), decision.certificate());
  }

  private int index() {
    return seat.index();
  }

  private Message lieInViewChanges(Message message) {
    if (attacks.contains(Attack.BOGUS_VIEW_CHANGE) && message instanceof ViewChange vc) {
      return signed(
          new ViewChange(
              vc.newView(), 0, Digest.GENESIS, List.of(), null, List.of(), index(), null),
          seat.epoch());
    }
    if (attacks.contains(Attack.FORGED_ANCHOR) && message instanceof ViewChange vc) {
      return signed(
          new ViewChange(
              vc.newView(),
              seat.epoch().sequence(),
              randomDigest(),
              List.of(),
              null,
              List.of(),
              index(),
              null),
          seat.epoch());
    }
    if (attacks.contains(Attack.LYING_NEW_VIEW) && message instanceof NewView nv) {
      return lyingNewView(nv);
    }
    return message;
  }

  private NewView lyingNewView(NewView original) {
    if (original.reproposals().isEmpty()) {
      List<ViewChange> fewer = original.viewChanges().subList(1, original.viewChanges().size());
      return new NewView(original.view(), fewer, List.of(), index(), original.signature());
    }
    List<PrePrepare> fewer = original.reproposals().subList(0, original.reproposals().size() - 1);
    byte[] signature = crypto.sign(SignedBytes.newView(seat.epoch(), original.view(), fewer));
    return new NewView(original.view(), original.viewChanges(), fewer, index(), signature);
  }

  private PrePrepare equivocate(PrePrepare original) {
    Proposal proposal = original.proposal();
    List<Request> requests = new ArrayList<>(proposal.requests());
    if (requests.size() >= 2) {
      requests = requests.reversed();
    } else {
      requests = List.of();
    }
    Proposal other =
        new Proposal(proposal.sequence(), proposal.previous(), requests, proposal.payload());
    Digest digest = SimKeys.digestOf(other);
    byte[] vote =
        crypto.sign(
            SignedBytes.prepareVote(seat.epoch(), original.view(), original.sequence(), digest));
    return new PrePrepare(original.view(), original.sequence(), digest, other, index(), vote);
  }

  private Message wrongDigest(Message message) {
    Digest wrong = randomDigest();
    return switch (message) {
      case Prepare p -> prepare(p.view(), p.sequence(), wrong, seat.epoch());
      case Commit c ->
          new Commit(
              c.view(),
              c.sequence(),
              wrong,
              index(),
              keys.signCommit(node, c.view(), wrong, random.nextLong()));
      case PrePrepare pp ->
          new PrePrepare(pp.view(), pp.sequence(), wrong, pp.proposal(), index(), pp.signature());
      default -> message;
    };
  }

  /** The same statement, validly signed by this node, but under {@code epoch}. */
  private Message signedUnder(Epoch epoch, Message message) {
    return switch (message) {
      case Prepare p -> prepare(p.view(), p.sequence(), p.digest(), epoch);
      case Checkpoint c -> checkpoint(c.sequence(), c.digest(), epoch);
      case ViewChange vc -> signed(vc, epoch);
      case PrePrepare pp ->
          new PrePrepare(
              pp.view(),
              pp.sequence(),
              pp.digest(),
              pp.proposal(),
              index(),
              crypto.sign(SignedBytes.prepareVote(epoch, pp.view(), pp.sequence(), pp.digest())));
      default -> message;
    };
  }

  private Prepare prepare(long view, long sequence, Digest digest, Epoch epoch) {
    byte[] vote = crypto.sign(SignedBytes.prepareVote(epoch, view, sequence, digest));
    return new Prepare(view, sequence, digest, index(), vote);
  }

  private Checkpoint checkpoint(long sequence, Digest digest, Epoch epoch) {
    byte[] signature = crypto.sign(SignedBytes.checkpoint(epoch, sequence, digest));
    return new Checkpoint(sequence, digest, index(), signature);
  }

  private Message corrupt(Message message) {
    return switch (message) {
      case Prepare p ->
          new Prepare(p.view(), p.sequence(), p.digest(), index(), flip(p.signature()));
      case Commit c -> new Commit(c.view(), c.sequence(), c.digest(), index(), flip(c.signature()));
      case Checkpoint c -> new Checkpoint(c.sequence(), c.digest(), index(), flip(c.signature()));
      case PrePrepare pp ->
          new PrePrepare(
              pp.view(), pp.sequence(), pp.digest(), pp.proposal(), index(), flip(pp.signature()));
      default -> message;
    };
  }

  private ViewChange signed(ViewChange unsigned, Epoch epoch) {
    return unsigned.withSignature(crypto.sign(SignedBytes.viewChange(epoch, unsigned)));
  }

  private Digest randomDigest() {
    return new Digest(SimKeys.sha256(new byte[] {(byte) random.nextInt()}));
  }

  private static byte[] flip(byte[] signature) {
    byte[] flipped = signature.clone();
    flipped[0] ^= 1;
    return flipped;
  }

  private void remember(Message message) {
    if (history.size() == HISTORY) {
      history.set(random.nextInt(HISTORY), message);
    } else {
      history.add(message);
    }
  }
}
