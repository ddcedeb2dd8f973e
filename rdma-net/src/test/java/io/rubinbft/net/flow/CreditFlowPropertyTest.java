package io.rubinbft.net.flow;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.Random;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Two sides exchange data over reliable in-order pipes (as RDMA RC and TCP are) under a seeded
 * random schedule: frames linger in flight, applications stall and resume, both send at once. The
 * credit rules must never let a frame arrive with no receive posted, never let the sides trade
 * credit frames forever, and always let all data through once the applications consume.
 */
class CreditFlowPropertyTest {

  private static final long BASE_SEED = 0x5EED_C0DEL;
  private static final int CHAOS_STEPS = 20_000;

  /** A frame on the wire: its kind, and the sender's position and BLOCKED flag when it left. */
  private record Frame(FrameKind kind, long advertised, boolean blocked) {}

  /** One side: its flow control, what its application still wants to send, frames it holds. */
  private static final class Side {
    final int slots;
    final FlowControl flow;
    final ArrayDeque<Frame> toPeer = new ArrayDeque<>();
    long dataToSend;
    long held;
    long delivered;
    long creditFrames;
    boolean stalled;

    Side(int slots, long dataToSend) {
      this.slots = slots;
      this.flow = new FlowControl(slots);
      this.dataToSend = dataToSend;
    }

    long posted() {
      return flow.receiveWindow().available() - flow.receiveWindow().received();
    }

    @Override
    public String toString() {
      return flow + ", held " + held + ", to send " + dataToSend + ", in flight " + toPeer.size();
    }
  }

  @RepeatedTest(400)
  void neverOverrunsNeverDeadlocksAndFinishes(RepetitionInfo repetition) {
    check(BASE_SEED + repetition.getCurrentRepetition());
  }

  @Test
  @Tag("long")
  void neverOverrunsNeverDeadlocksAndFinishesOverManySeeds() {
    for (long seed = BASE_SEED + 1000; seed < BASE_SEED + 100_000; seed++) {
      check(seed);
    }
  }

  private static void check(long seed) {
    Random random = new Random(seed);
    int minimum = ReceiveWindow.minimumSlots();
    Side a = new Side(minimum + random.nextInt(28), 200 + random.nextInt(2000));
    Side b =
        new Side(minimum + random.nextInt(28), random.nextBoolean() ? 0 : random.nextInt(2000));
    handshake(a, b);
    long totalData = a.dataToSend + b.dataToSend;

    long steps = 0;
    int idle = 0;
    long creditAtCalm = 0;
    long dataLeftAtCalm = 0;
    while (a.delivered + b.delivered < totalData) {
      boolean chaos = steps < CHAOS_STEPS;
      if (steps == CHAOS_STEPS) {
        creditAtCalm = a.creditFrames + b.creditFrames;
        dataLeftAtCalm = totalData - a.delivered - b.delivered;
      }
      boolean forward = step(random, a, b, chaos);
      boolean progress = step(random, b, a, chaos) || forward;
      idle = progress || chaos ? 0 : idle + 1;
      if (idle > 100) {
        throw new AssertionError("deadlock (seed " + seed + "): a: " + a + "; b: " + b);
      }
      assertThat(++steps).as("seed %d: finishes; a: %s; b: %s", seed, a, b).isLessThan(2_000_000);
    }
    drain(a, b, seed);

    // Once frames stop lingering, explicit credit is at most about one frame per data frame.
    long calmCredit = steps > CHAOS_STEPS ? a.creditFrames + b.creditFrames - creditAtCalm : 0;
    assertThat(calmCredit)
        .as("seed %d: explicit credit frames once calm", seed)
        .isLessThanOrEqualTo(dataLeftAtCalm + 8);
  }

  /** Each side's HELLO (a signal into the one slot assumed) tells the other its slots. */
  private static void handshake(Side a, Side b) {
    a.flow.onSent(FrameKind.SIGNAL, false);
    b.flow.onSent(FrameKind.SIGNAL, false);
    b.flow.onHandshake(a.slots);
    a.flow.onHandshake(b.slots);
  }

  /** One random turn of {@code self}; returns whether anything changed. */
  private static boolean step(Random random, Side self, Side peer, boolean chaos) {
    self.stalled = chaos ? self.stalled ^ random.nextInt(50) == 0 : false;
    boolean progress = false;
    if (self.dataToSend > 0 && random.nextInt(3) != 0) {
      if (self.flow.canSend(FrameKind.DATA)) {
        send(self, FrameKind.DATA);
        self.dataToSend--;
        progress = true;
      } else {
        self.flow.onBackPressured();
      }
    }
    if (!self.toPeer.isEmpty() && (!chaos || random.nextInt(4) != 0)) {
      arrive(self.toPeer.poll(), peer);
      progress = true;
    }
    if (!self.stalled && self.held > 0) {
      long consumed = 1L + random.nextInt((int) self.held);
      for (long i = 0; i < consumed; i++) {
        self.flow.onReleased(true);
      }
      self.held -= consumed;
      self.delivered += consumed;
      progress = true;
    }
    return sendExplicitCredit(self) || progress;
  }

  private static boolean sendExplicitCredit(Side self) {
    CreditUrgency urgency = self.flow.urgency();
    if (urgency == CreditUrgency.NONE || !self.flow.canSend(urgency.frameKind())) {
      return false;
    }
    send(self, urgency.frameKind(), urgency == CreditUrgency.BLOCKED);
    self.creditFrames++;
    return true;
  }

  private static void send(Side self, FrameKind kind) {
    send(self, kind, false);
  }

  private static void send(Side self, FrameKind kind, boolean announcesBlocked) {
    Frame frame = new Frame(kind, self.flow.available(), announcesBlocked);
    self.flow.onSent(kind, announcesBlocked);
    self.toPeer.add(frame);
  }

  private static void arrive(Frame frame, Side at) {
    assertThat(at.posted()).as("a frame arrived with no receive posted").isPositive();
    assertThat(at.flow.onArrived(frame.advertised(), frame.blocked())).isTrue();
    if (frame.kind() == FrameKind.DATA) {
      at.held++;
    } else {
      at.flow.onReleased(false);
    }
  }

  /** After all data arrived, the credit exchange must come to rest. */
  private static void drain(Side a, Side b, long seed) {
    for (int round = 0; round < 1000; round++) {
      boolean moved = false;
      for (Side[] pair : new Side[][] {{a, b}, {b, a}}) {
        while (!pair[0].toPeer.isEmpty()) {
          arrive(pair[0].toPeer.poll(), pair[1]);
          moved = true;
        }
        moved |= sendExplicitCredit(pair[0]);
      }
      if (!moved) {
        return;
      }
    }
    throw new AssertionError("seed " + seed + ": credit frames kept flowing with no data");
  }

  @Test
  void advertisementsInAnyOrderLeaveTheHighest() {
    long seed = BASE_SEED;
    Random random = new Random(seed);
    for (int trial = 0; trial < 1000; trial++) {
      SendWindow window = new SendWindow(1);
      long highest = 1;
      for (int i = 0; i < 20; i++) {
        long advertised = random.nextInt(1000);
        highest = Math.max(highest, advertised);
        window.onAdvertised(advertised);
      }
      assertThat(window.peerAvailable()).as("seed %d trial %d", seed, trial).isEqualTo(highest);
      assertThat(window.dataCredit())
          .isEqualTo(Math.max(0, highest - SendWindow.CONTROL_RESERVE - window.sent()));
    }
  }
}
