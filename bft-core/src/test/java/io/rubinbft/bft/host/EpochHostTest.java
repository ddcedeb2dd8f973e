package io.rubinbft.bft.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Event;
import io.rubinbft.bft.Handover;
import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.RequestId;
import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.message.Decisions;
import io.rubinbft.bft.protocol.Replica;
import io.rubinbft.bft.sim.SimApplication;
import io.rubinbft.bft.sim.SimHostedEpoch;
import io.rubinbft.bft.sim.SimKeys;
import io.rubinbft.bft.spi.ReplicaServices;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The host's own rules, on a real one-replica {@link Replica} (n = 1 decides alone, so a step
 * yields a decision) whose ports record what the host did, in order: bft-core's durability rule,
 * the epoch switch, the frame check and the stalled-view-change trigger.
 */
class EpochHostTest {

  /** One replica, one request per batch, proposals at once. */
  private static final ReplicaConfig CONFIG =
      new ReplicaConfig(
          1, 0, 1, 1 << 16, 0, 16, 4, 500, 1024, 60, 20, 8, 64, 10_000, Decisions.MAX_ANSWER_BYTES);

  private final List<String> trace = new ArrayList<>();
  private final List<Decision> executed = new ArrayList<>();

  @Test
  void recordsAreDurableBeforeVotesLeaveAndDecisionsExecute() throws InterruptedException {
    EpochHost<Recorded> host = host(new Recorded(0, replica(), -1), Optional::empty);
    host.step(request(0));
    assertThat(trace).contains("append").doesNotContain("sync", "execute 1");
    EpochHost.Batch<Recorded> batch = host.finish();
    assertThat(trace).containsSubsequence("append", "sync", "execute 1");
    assertThat(trace.indexOf("sync")).isLessThan(trace.indexOf("execute 1"));
    assertThat(batch.executed()).extracting(Decision::sequence).containsExactly(1L);
    assertThat(batch.switched()).isEmpty();
  }

  @Test
  void aCrashBeforeTheSyncExecutesNothing() {
    EpochHost<Recorded> host = host(new Recorded(0, replica(), -1, true), Optional::empty);
    assertThatThrownBy(() -> host.stepAndFinish(request(0)))
        .isInstanceOf(SimHostedEpoch.CrashedBeforeSync.class);
    assertThat(trace).doesNotContain("sync");
    assertThat(executed).isEmpty();
  }

  @Test
  void theEpochEndsAtItsAnchorAndTheNextStartsWithTheHandover() throws InterruptedException {
    Recorded first = new Recorded(0, replica(), 2);
    List<Handover> handovers = new ArrayList<>();
    Recorded second = new Recorded(2, replica(), -1);
    EpochHost<Recorded> host =
        new EpochHost<>(
            first,
            new Ledger(),
            (ended, anchor, handover) -> {
              trace.add("start after " + anchor.sequence());
              handovers.add(handover);
              return Optional.of(second);
            });
    for (int i = 0; i < 3; i++) {
      host.step(request(i));
    }
    EpochHost.Batch<Recorded> batch = host.finish();
    // Decision 3 of the ended epoch is executed by nobody: its request goes to the next epoch.
    assertThat(executed).extracting(Decision::sequence).containsExactly(1L, 2L);
    assertThat(trace)
        .containsSubsequence("execute 2", "await 2", "close 0", "start after 2")
        .doesNotContain("execute 3");
    assertThat(handovers.getFirst().pending())
        .extracting(r -> r.id().key())
        .containsExactly("tx-2");
    assertThat(batch.switched()).hasValueSatisfying(s -> assertThat(s.next()).contains(second));
    assertThat(host.epoch()).isSameAs(second);
  }

  @Test
  void aNodeLeftOutOfTheNextEpochStepsNoMore() throws InterruptedException {
    EpochHost<Recorded> host = host(new Recorded(0, replica(), 1), Optional::empty);
    EpochHost.Batch<Recorded> batch = host.stepAndFinish(request(0));
    assertThat(batch.switched()).hasValueSatisfying(s -> assertThat(s.next()).isEmpty());
    assertThat(host.member()).isFalse();
    assertThatThrownBy(() -> host.step(new Event.Tick())).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void framesReachTheReplicaOnlyFromMembersOfItsEpoch() {
    OptionalInt member = OptionalInt.of(2);
    assertThat(FrameCheck.of(5, true, 5, member)).isEqualTo(FrameCheck.DELIVER);
    assertThat(FrameCheck.of(5, true, 4, member)).isEqualTo(FrameCheck.OLDER_EPOCH);
    assertThat(FrameCheck.of(5, true, 6, member)).isEqualTo(FrameCheck.NEWER_EPOCH);
    assertThat(FrameCheck.of(5, true, 5, OptionalInt.empty())).isEqualTo(FrameCheck.NOT_A_MEMBER);
    assertThat(FrameCheck.of(5, true, 6, OptionalInt.empty())).isEqualTo(FrameCheck.NOT_A_MEMBER);
    assertThat(FrameCheck.of(5, false, 5, member)).isEqualTo(FrameCheck.NOT_A_MEMBER);
  }

  @Test
  void aStalledViewChangeIsReportedAfterTheTimeoutThenAfterDoublingWaits() {
    StalledViewChange stall = new StalledViewChange(10);
    List<Integer> reports = new ArrayList<>();
    for (int tick = 1; tick <= 200; tick++) {
      if (stall.onTick(false)) {
        reports.add(tick);
      }
    }
    // After 10, then 20, 40 and every 80 ticks more.
    assertThat(reports).containsExactly(10, 30, 70, 150);
    assertThat(stall.onTick(true)).isFalse();
    for (int tick = 1; tick < 10; tick++) {
      assertThat(stall.onTick(false)).isFalse();
    }
    assertThat(stall.onTick(false)).as("an installed view resets the patience").isTrue();
  }

  private EpochHost<Recorded> host(
      Recorded first, java.util.function.Supplier<Optional<Recorded>> next) {
    return new EpochHost<>(first, new Ledger(), (ended, anchor, handover) -> next.get());
  }

  private static Replica replica() {
    SimKeys keys = new SimKeys(1, 3);
    SimApplication application = new SimApplication();
    return Replica.start(
        CONFIG,
        new ReplicaServices(
            keys.crypto(0), keys.signer(0, new Random(1)), application, application));
  }

  private static Event request(int number) {
    return new Event.ClientRequest(
        new Request(
            new RequestId("client", "tx-" + number),
            ("payload " + number).getBytes(StandardCharsets.UTF_8)));
  }

  private final class Ledger implements HostApplication {
    @Override
    public void execute(Decision decision) {
      trace.add("execute " + decision.sequence());
      executed.add(decision);
    }

    @Override
    public void awaitDurable(Decision anchor) {
      trace.add("await " + anchor.sequence());
    }
  }

  /**
   * A simulated epoch whose ports also record what the host asks of them; it ends at {@code
   * endsAt}, and with {@code crashes} its node crashes at the first append, before the sync.
   */
  private final class Recorded extends SimHostedEpoch {

    Recorded(long number, Replica replica, long endsAt, boolean crashes) {
      super(
          new ArrayList<>(),
          number,
          replica,
          messages ->
              messages.forEach(m -> trace.add("send " + m.message().getClass().getSimpleName())),
          reads -> reads.forEach(r -> trace.add("serve")),
          () -> crashes,
          decision -> decision.sequence() == endsAt);
    }

    Recorded(long number, Replica replica, long endsAt) {
      this(number, replica, endsAt, false);
    }

    @Override
    public void append(List<WalRecord> records) {
      super.append(records);
      if (!records.isEmpty()) {
        trace.add("append");
      }
    }

    @Override
    public void sync() {
      trace.add("sync");
    }

    @Override
    public void close() {
      trace.add("close " + number());
    }
  }
}
