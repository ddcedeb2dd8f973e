package io.rubinbft.orderer.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The heap a plan needs, and the memory limit that caps it. */
class HeapSizeTest {

  private static final long MIB = 1L << 20;
  private static final MemoryBudgets BUDGETS = MemoryBudgets.standard();

  @TempDir Path cgroup;

  /**
   * The sum, term by term, for the default plan: one channel with Fabric's 10 MB AbsoluteMaxBytes
   * (a window of 15 MiB of proposals, a backup holding twice that, and one retained decision of up
   * to 10 MiB: 40 MiB, what a window of 2 proposals in flight and 2 retained held before), its ids,
   * its ledger's tx id filter (1 Mi ids at 1 % false positives and the quarter-size filter it
   * replaces while it grows), its request pool (21 MiB, more than two proposals at the cap) and
   * queues (each queue at least one 10 MiB item), and per peer the node's link budget and two
   * transport messages (one queued to send, one being reassembled); the old generation (5/6 of the
   * heap) holds it all.
   */
  @Test
  void theDefaultPlansHeapIsTheSumOfItsBudgets() {
    Pipeline pipeline = Pipeline.forChannel(4, 500, 10 * MIB, 10 * MIB);
    assertThat(pipeline.window()).isEqualTo(64);
    assertThat(pipeline.windowBytes()).isEqualTo(15 * MIB);
    assertThat(pipeline.retainedDecisions()).isEqualTo(1);
    long cap = pipeline.batchMaxBytes();
    long request = pipeline.requestMaxBytes();

    HeapSize.Need need = HeapSize.need(HeapSize.Plan.DEFAULT, BUDGETS);

    long channel =
        2 * 15 * MIB
            + cap
            + 16 * MIB
            + 1_570_936
            + 21 * MIB
            + Math.max(5376 << 10, request)
            + 3 * ((1344 << 10) + cap)
            + 3 * request;
    long node = 16 * MIB + 3 * ((1344 << 10) + 16 * MIB + 16 * MIB);
    assertThat(need.channelBytes()).isEqualTo(channel);
    assertThat(need.nodeBytes()).isEqualTo(node);
    assertThat(need.heapBytes() * 5 / 6).isGreaterThanOrEqualTo(channel + node);
    assertThat(need.heapBytes() * 5 / 6).isLessThan(channel + node + MIB);
    assertThat(need.outsideHeapBytes()).isEqualTo(226 * MIB);
  }

  /** Channels add up: ten channels need ten channels' budgets besides one node's. */
  @Test
  void eachChannelAddsItsBudgets() {
    HeapSize.Need one = HeapSize.need(new HeapSize.Plan(1, 10 * MIB, 4), BUDGETS);
    HeapSize.Need ten = HeapSize.need(new HeapSize.Plan(10, 10 * MIB, 4), BUDGETS);

    assertThat(ten.channelBytes()).isEqualTo(one.channelBytes());
    assertThat(ten.heapBytes())
        .isEqualTo(HeapSize.heapFor(one.nodeBytes() + 10 * one.channelBytes()));
    assertThat(ten.outsideHeapBytes()).isEqualTo(200 * MIB + 10 * 16 * MIB + 10 * 10 * MIB);
  }

  /**
   * Each channel's request pool holds the blocks it can cut, two proposals at its cap and their
   * requests' overhead, and the heap holds every channel's: ten channels of 10 MB blocks once
   * shared one node-wide 21 MiB, less than one block each, and refused 46 % of the submits of
   * TenChannelsEndToEndTest, so blocks rarely reached 10 MB.
   */
  @Test
  void eachChannelsPoolHoldsTwoOfItsBlocksAndTheHeapHoldsEveryChannelsPool() {
    Pipeline tenMb = Pipeline.forChannel(4, 500, 10 * MIB, 10 * MIB);
    long twoBlocks = 2 * (tenMb.batchMaxBytes() + 500 * MemoryBudgets.ITEM_OVERHEAD_BYTES);
    PoolBytes pool = PoolBytes.forChannel(BUDGETS, tenMb, 500);
    assertThat(pool.limit()).isGreaterThanOrEqualTo(twoBlocks);
    assertThat(pool.refusal(tenMb.batchMaxBytes(), tenMb.batchMaxBytes())).isEmpty();

    Pipeline large = Pipeline.forChannel(4, 500, 14 * MIB, 14 * MIB);
    assertThat(PoolBytes.forChannel(BUDGETS, large, 500).limit())
        .isEqualTo(2 * (large.batchMaxBytes() + 500 * MemoryBudgets.ITEM_OVERHEAD_BYTES));
    assertThat(
            PoolBytes.forChannel(BUDGETS, Pipeline.forChannel(4, 500, 512 << 10, 512 << 10), 500)
                .limit())
        .as("small blocks keep the floor")
        .isEqualTo(BUDGETS.requestPoolBytes());

    // The pool is a channel's, not the node's: a smaller floor changes each channel's sum by what
    // its pool loses and the node's by nothing.
    MemoryBudgets noFloor =
        new MemoryBudgets(
            BUDGETS.peerLinkBytes(), BUDGETS.peerInputBytes(), BUDGETS.clientInputBytes(), 1);
    assertThat(
            HeapSize.channelBytes(BUDGETS, 4, 500, 10 * MIB, 10 * MIB)
                - HeapSize.channelBytes(noFloor, 4, 500, 10 * MIB, 10 * MIB))
        .isEqualTo(pool.limit() - twoBlocks);
    assertThat(HeapSize.nodeBytes(noFloor, 4)).isEqualTo(HeapSize.nodeBytes(BUDGETS, 4));
    HeapSize.Need ten = HeapSize.need(new HeapSize.Plan(10, 10 * MIB, 4), BUDGETS);
    assertThat(ten.heapBytes() * 5 / 6)
        .as("ten channels' pools in the old generation")
        .isGreaterThanOrEqualTo(ten.nodeBytes() + 10 * pool.limit());
  }

  /**
   * Smaller blocks need less: 512 KiB blocks keep 64 of them in flight within the same window's
   * bytes, and a peer's queues hold one 512 KiB item instead of one of 10 MB.
   */
  @Test
  void smallerBlocksNeedLessHeap() {
    HeapSize.Need small = HeapSize.need(new HeapSize.Plan(1, 512 << 10, 4), BUDGETS);
    HeapSize.Need fabricDefault = HeapSize.need(HeapSize.Plan.DEFAULT, BUDGETS);

    assertThat(small.channelBytes()).isLessThan(fabricDefault.channelBytes());
    assertThat(small.heapBytes()).isLessThan(fabricDefault.heapBytes());
  }

  @Test
  void aPlanThatFitsTheLimitGetsItsHeap() {
    HeapSize.Need need = HeapSize.need(HeapSize.Plan.DEFAULT, BUDGETS);

    assertThat(HeapSize.ceiling(need, OptionalLong.of(need.memoryBytes())))
        .isEqualTo(need.heapBytes());
    assertThat(HeapSize.ceiling(need, OptionalLong.empty())).isEqualTo(need.heapBytes());
  }

  /** A plan beyond the limit is refused before the node starts, with the numbers. */
  @Test
  void aPlanBeyondTheLimitIsRefusedNamingTheNumbers() {
    HeapSize.Need need = HeapSize.need(new HeapSize.Plan(10, 10 * MIB, 4), BUDGETS);

    assertThatThrownBy(() -> HeapSize.ceiling(need, OptionalLong.of(1024 * MIB)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith(
            "10 channels with blocks of at most 10485760 bytes on 4 consenters need a heap of "
                + need.heapBytes() / MIB
                + " MiB")
        .hasMessageContaining("but the memory limit is 1024 MiB: raise the limit to")
        .hasMessageContaining("or plan fewer channels or a smaller AbsoluteMaxBytes");
  }

  /**
   * A Deliver stream's block waits in direct memory (Netty's buffers) until its reader takes it, so
   * ten channels of 10 MB blocks, each followed by one reader on the same orderer, hold about 100
   * MiB of it beside the gRPC messages being received and the replica links' rings: beyond the
   * launcher's fixed 96 MiB, which ran out in TenChannelsEndToEndTest (Netty failed whole client
   * connections and a Deliver request's thread). The plan bounds direct memory too, a block per
   * channel beyond the base, and counts it in what the node uses beside its heap.
   */
  @Test
  void thePlansDirectMemoryHoldsABlockPerChannelBeingDelivered() {
    HeapSize.Need ten = HeapSize.need(new HeapSize.Plan(10, 10 * MIB, 4), BUDGETS);

    assertThat(HeapSize.launcherOption(Map.of("RUBIN_CHANNELS", "10"), cgroup, false))
        .isEqualTo(
            "-Xmx" + ten.heapBytes() / MIB + "m -XX:MaxDirectMemorySize=" + (96 + 100) + "m");
    assertThat(HeapSize.launcherOption(Map.of(), cgroup, false))
        .endsWith(" -XX:MaxDirectMemorySize=106m");
    assertThat(ten.outsideHeapBytes()).isEqualTo(200 * MIB + 10 * 16 * MIB + 10 * 10 * MIB);
  }

  @Test
  void theLimitIsTheExplicitOneOrTheCgroups() throws IOException {
    assertThat(HeapSize.memoryLimit(Map.of(), cgroup)).isEmpty();

    Files.writeString(cgroup.resolve("memory.max"), "max\n");
    assertThat(HeapSize.memoryLimit(Map.of(), cgroup)).isEmpty();

    Files.writeString(cgroup.resolve("memory.max"), "1073741824\n");
    assertThat(HeapSize.memoryLimit(Map.of(), cgroup)).hasValue(1024 * MIB);
    assertThat(HeapSize.memoryLimit(Map.of("RUBIN_MEMORY_LIMIT", "3g"), cgroup))
        .hasValue(3072 * MIB);

    Files.delete(cgroup.resolve("memory.max"));
    Files.createDirectory(cgroup.resolve("memory"));
    Files.writeString(cgroup.resolve("memory/memory.limit_in_bytes"), "9223372036854771712\n");
    assertThat(HeapSize.memoryLimit(Map.of(), cgroup)).as("cgroup v1 without a limit").isEmpty();
    Files.writeString(cgroup.resolve("memory/memory.limit_in_bytes"), "536870912\n");
    assertThat(HeapSize.memoryLimit(Map.of(), cgroup)).hasValue(512 * MIB);
  }

  @Test
  void thePlanComesFromTheLaunchersVariables() {
    assertThat(HeapSize.plan(Map.of())).isEqualTo(HeapSize.Plan.DEFAULT);
    assertThat(
            HeapSize.plan(
                Map.of(
                    "RUBIN_CHANNELS",
                    "10",
                    "RUBIN_BLOCK_MAX_BYTES",
                    "2 MB",
                    "RUBIN_CONSENTERS",
                    "7")))
        .isEqualTo(new HeapSize.Plan(10, 2 * MIB, 7));
    assertThat(HeapSize.bytes("x", "512m")).isEqualTo(512 * MIB);
    assertThat(HeapSize.bytes("x", "2Gi")).isEqualTo(2048 * MIB);
    assertThat(HeapSize.bytes("x", "99 KB")).isEqualTo(99 << 10);
    assertThatThrownBy(() -> HeapSize.bytes("RUBIN_CHANNELS", "ten"))
        .hasMessage(
            "RUBIN_CHANNELS is \"ten\": expected a positive number, optionally with K, M or G");
  }
}
