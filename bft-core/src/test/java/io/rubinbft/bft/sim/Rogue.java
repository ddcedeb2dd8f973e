package io.rubinbft.bft.sim;

import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Epoch;
import io.rubinbft.bft.message.Commit;
import io.rubinbft.bft.message.Message;
import io.rubinbft.bft.message.Prepare;
import io.rubinbft.bft.message.SignedBytes;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A node that turns Byzantine once removed: it ignores its removal, keeps its old epoch's replica
 * running (its votes go out framed with the old epoch), replays what it sent and received framed
 * with the old and with the newest epoch, forges fresh votes for the newest epoch signed with its
 * own key under that epoch, and serves tampered decisions to nodes that catch up from it. It knows
 * everything an adversary can (the newest epoch, its anchor and progress) but holds only its own
 * key.
 */
final class Rogue {

  private static final int HISTORY = 128;

  private final int id;
  private final Random random;
  private final SimKeys keys;
  private final List<Message> history = new ArrayList<>();

  Rogue(int id, Random random, SimKeys keys) {
    this.id = id;
    this.random = random;
    this.keys = keys;
  }

  void remember(Message message) {
    if (history.size() == HISTORY) {
      history.set(random.nextInt(HISTORY), message);
    } else {
      history.add(message);
    }
  }

  /**
   * This tick's forgeries: in the rogue's own (old) epoch {@code own}, and in the {@code newest}
   * epoch, whose next undecided sequence is {@code next}.
   */
  List<Framed> forge(SimEpoch own, SimEpoch newest, long next) {
    List<Framed> forged = new ArrayList<>();
    if (!history.isEmpty()) {
      Message replay = history.get(random.nextInt(history.size()));
      forged.add(new Framed(own.number(), replay));
      forged.add(new Framed(newest.number(), replay));
    }
    if (newest.anchor() != null) {
      Epoch epoch = Epoch.after(newest.anchor());
      Digest digest = new Digest(SimKeys.sha256(new byte[] {(byte) random.nextInt(), 9}));
      int claimed = random.nextInt(newest.members().size());
      byte[] vote = keys.crypto(id).sign(SignedBytes.prepareVote(epoch, 0, next, digest));
      forged.add(new Framed(newest.number(), new Prepare(0, next, digest, claimed, vote)));
      byte[] commit = keys.signCommit(id, 0, digest, random.nextLong());
      forged.add(new Framed(newest.number(), new Commit(0, next, digest, claimed, commit)));
    }
    return forged;
  }
}
