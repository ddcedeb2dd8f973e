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
import io.rubinbft.bft.message.Message;
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.message.Prepare;
import io.rubinbft.bft.message.SignedBytes;
import io.rubinbft.bft.message.ViewChange;
import io.rubinbft.bft.spi.Crypto;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * A Byzantine replica's behaviour: it runs a correct replica inside and rewrites what that replica
 * sends, adds messages of its own, and may ignore requests. It signs only with its own keys.
 */
final class Byzantine {

  private static final int HISTORY = 256;

  private final int id;
  private final Epoch epoch;
  private final Set<Attack> attacks;
  private final Random random;
  private final Crypto crypto;
  private final SimKeys keys;
  private final List<Message> history = new ArrayList<>();
  private final Set<Integer> ignored;

  Byzantine(int id, int replicas, Epoch epoch, Set<Attack> attacks, Random random, SimKeys keys) {
    this.id = id;
    this.epoch = epoch;
    this.attacks = EnumSet.copyOf(attacks);
    this.random = random;
    this.crypto = keys.crypto(id);
    this.keys = keys;
    this.ignored = Set.of((id + 1) % replicas);
  }

  Set<Attack> attacks() {
    return attacks;
  }

  boolean acceptsRequest(Request request) {
    return !(attacks.contains(Attack.CENSOR) && request.id().client().equals("client-0"));
  }

  /** What actually leaves for {@code to} instead of {@code message}. */
  List<Outbound> rewrite(int to, Message message) {
    if (attacks.contains(Attack.SILENT)
        || (attacks.contains(Attack.SELECTIVE_SILENCE) && ignored.contains(to))) {
      return List.of();
    }
    Message sent = message;
    if (attacks.contains(Attack.EQUIVOCATE) && message instanceof PrePrepare pp && to % 2 == 1) {
      sent = equivocate(pp);
    }
    if (attacks.contains(Attack.WRONG_DIGEST) && random.nextInt(4) == 0) {
      sent = wrongDigest(sent);
    }
    if (attacks.contains(Attack.BAD_SIGNATURES) && random.nextInt(4) == 0) {
      sent = corrupt(sent);
    }
    if (attacks.contains(Attack.LYING_STATE_TRANSFER) && sent instanceof Decisions answer) {
      sent = new Decisions(answer.decisions().stream().map(this::tamper).toList(), id);
    }
    if (attacks.contains(Attack.BOGUS_VIEW_CHANGE) && sent instanceof ViewChange vc) {
      sent =
          signed(
              new ViewChange(
                  vc.newView(), 0, Digest.GENESIS, List.of(), null, List.of(), id, null));
    }
    remember(sent);
    return List.of(Outbound.toReplica(to, sent));
  }

  /** Messages of its own in reaction to what it receives. */
  List<Outbound> onReceived(Message message) {
    remember(message);
    if (attacks.contains(Attack.SIGN_EVERYTHING) && message instanceof PrePrepare pp) {
      byte[] signature = keys.signCommit(id, pp.digest(), random.nextLong());
      return List.of(
          Outbound.toAll(new Commit(pp.view(), pp.sequence(), pp.digest(), id, signature)));
    }
    return List.of();
  }

  /** Messages of its own each tick. */
  List<Outbound> onTick(long now) {
    List<Outbound> extra = new ArrayList<>();
    if (attacks.contains(Attack.REPLAY) && now % 7 == 0 && !history.isEmpty()) {
      extra.add(Outbound.toAll(history.get(random.nextInt(history.size()))));
    }
    if (attacks.contains(Attack.BOGUS_VIEW_CHANGE) && now % 97 == 0) {
      long view = 1 + random.nextInt(50);
      extra.add(
          Outbound.toAll(
              signed(
                  new ViewChange(view, 0, Digest.GENESIS, List.of(), null, List.of(), id, null))));
    }
    return extra;
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
        crypto.sign(SignedBytes.prepareVote(epoch, original.view(), original.sequence(), digest));
    return new PrePrepare(original.view(), original.sequence(), digest, other, id, vote);
  }

  private Message wrongDigest(Message message) {
    Digest wrong = new Digest(SimKeys.sha256(new byte[] {(byte) random.nextInt()}));
    return switch (message) {
      case Prepare p ->
          new Prepare(
              p.view(),
              p.sequence(),
              wrong,
              id,
              crypto.sign(SignedBytes.prepareVote(epoch, p.view(), p.sequence(), wrong)));
      case Commit c ->
          new Commit(
              c.view(), c.sequence(), wrong, id, keys.signCommit(id, wrong, random.nextLong()));
      case PrePrepare pp ->
          new PrePrepare(pp.view(), pp.sequence(), wrong, pp.proposal(), id, pp.signature());
      default -> message;
    };
  }

  private Message corrupt(Message message) {
    return switch (message) {
      case Prepare p -> new Prepare(p.view(), p.sequence(), p.digest(), id, flip(p.signature()));
      case Commit c -> new Commit(c.view(), c.sequence(), c.digest(), id, flip(c.signature()));
      case Checkpoint c -> new Checkpoint(c.sequence(), c.digest(), id, flip(c.signature()));
      case PrePrepare pp ->
          new PrePrepare(
              pp.view(), pp.sequence(), pp.digest(), pp.proposal(), id, flip(pp.signature()));
      default -> message;
    };
  }

  private ViewChange signed(ViewChange unsigned) {
    byte[] signature = crypto.sign(SignedBytes.viewChange(epoch, unsigned));
    return new ViewChange(
        unsigned.newView(),
        unsigned.stableSequence(),
        unsigned.stableDigest(),
        unsigned.stableProof(),
        unsigned.lastDecision(),
        unsigned.prepared(),
        id,
        signature);
  }

  /** The same decision and certificate, over a proposal with the requests dropped. */
  private Decision tamper(Decision decision) {
    Proposal original = decision.proposal();
    Proposal forged =
        new Proposal(original.sequence(), original.previous(), List.of(), original.payload());
    return new Decision(forged, SimKeys.digestOf(forged), decision.certificate());
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
